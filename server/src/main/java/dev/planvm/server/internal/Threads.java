package dev.planvm.server.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads for requests and runs: virtual threads when the running JVM has them (21+; the code is
 * compiled for 17, so the factory is looked up), else a cached pool of daemon platform threads.
 */
public final class Threads {

    private static final MethodHandle VIRTUAL_PER_TASK = lookUp();

    private Threads() {
    }

    /** Whether this JVM has virtual threads. */
    public static boolean virtual() {
        return VIRTUAL_PER_TASK != null;
    }

    /** An executor that starts a thread per task (virtual when available); callers bound how many they submit. */
    public static ExecutorService perTask(String name) {
        if (VIRTUAL_PER_TASK != null) {
            try {
                return (ExecutorService) VIRTUAL_PER_TASK.invoke();
            } catch (Throwable e) {
                throw new IllegalStateException("cannot create a virtual thread executor", e);
            }
        }
        AtomicInteger count = new AtomicInteger();
        return Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    private static MethodHandle lookUp() {
        try {
            return MethodHandles.publicLookup().findStatic(Executors.class, "newVirtualThreadPerTaskExecutor",
                    MethodType.methodType(ExecutorService.class));
        } catch (NoSuchMethodException | IllegalAccessException notThere) {
            return null;
        }
    }
}
