package dev.planvm.vm.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

/** Threads for calls that run ahead: daemon platform threads, numbered by name, where there are no virtual ones. */
class ThreadsTest {

    @Test
    void the_daemon_factory_numbers_its_threads_and_never_keeps_the_jvm_alive() {
        ThreadFactory factory = Threads.daemon("calls");
        Thread first = factory.newThread(() -> {});
        Thread second = factory.newThread(() -> {});
        assertThat(first.getName()).isEqualTo("calls-1");
        assertThat(second.getName()).isEqualTo("calls-2");
        assertThat(first.isDaemon()).isTrue();
        assertThat(Threads.daemon("other").newThread(() -> {}).getName()).isEqualTo("other-1");
    }

    @Test
    void executors_run_their_tasks_on_virtual_threads_or_else_on_named_daemon_threads() throws Exception {
        boolean virtual = Runtime.version().feature() >= 21;
        assertThat(Threads.virtual()).isEqualTo(virtual);
        for (ExecutorService executor : new ExecutorService[] {Threads.perTask("ahead"), Threads.bounded("batch", 2)}) {
            try {
                Thread thread = executor.submit(Thread::currentThread).get();
                assertThat(thread.isDaemon()).isTrue();
                if (!virtual) {
                    assertThat(thread.getName()).matches("(ahead|batch)-1");
                }
            } finally {
                executor.shutdownNow();
            }
        }
    }
}
