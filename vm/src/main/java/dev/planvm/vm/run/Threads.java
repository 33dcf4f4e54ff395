package dev.planvm.vm.run;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads for calls that run ahead of their turn, batches, served requests and runs: virtual threads when the
 * running JVM has them (21+; we compile for 17, so they are looked up, the way Jetty 12 does),
 * daemon platform threads otherwise.
 */
public final class Threads {

    private static final MethodHandle VIRTUAL_PER_TASK = lookUpVirtualThreads();

    private Threads() {}

    /** Whether this JVM has virtual threads. */
    public static boolean virtual() {
        return VIRTUAL_PER_TASK != null;
    }

    /**
     * An executor that starts a thread per task: virtual when available, else a cached pool of
     * daemon platform threads (idle ones end after a minute; they never keep the JVM alive).
     */
    public static ExecutorService perTask(String name) {
        if (VIRTUAL_PER_TASK != null) {
            try {
                return (ExecutorService) VIRTUAL_PER_TASK.invoke();
            } catch (Throwable e) {
                throw new IllegalStateException("cannot create a virtual thread executor", e);
            }
        }
        return Executors.newCachedThreadPool(daemon(name));
    }

    /**
     * An executor for at most {@code size} tasks at once (the caller bounds how many it submits):
     * a virtual thread per task when available, else a fixed pool of {@code size} daemon threads.
     * Shut it down when done (under release 17 it is not AutoCloseable).
     */
    public static ExecutorService bounded(String name, int size) {
        return VIRTUAL_PER_TASK != null ? perTask(name) : Executors.newFixedThreadPool(size, daemon(name));
    }

    /** A factory of daemon threads named {@code name-1}, {@code name-2}, ... */
    public static ThreadFactory daemon(String name) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    private static MethodHandle lookUpVirtualThreads() {
        try {
            return MethodHandles.publicLookup()
                    .findStatic(
                            Executors.class,
                            "newVirtualThreadPerTaskExecutor",
                            MethodType.methodType(ExecutorService.class));
        } catch (NoSuchMethodException | IllegalAccessException notThere) {
            return null;
        }
    }
}
