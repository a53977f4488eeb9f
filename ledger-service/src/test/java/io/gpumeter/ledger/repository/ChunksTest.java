package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import io.smallrye.mutiny.subscription.UniEmitter;
import org.junit.jupiter.api.Test;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChunksTest {

    @Test
    void slicesAreCutToSizeInOrder() {
        assertEquals(List.of(List.of(1, 2), List.of(3, 4), List.of(5)), Chunks.of(List.of(1, 2, 3, 4, 5), 2));
        assertEquals(List.of(), Chunks.of(List.of(), 3));
    }

    /** The slices' work, answered by the test: which slices have started, and the means to finish each. */
    private static final class Work {
        final Map<Integer, UniEmitter<? super String>> started = new TreeMap<>();
        int running;
        int mostRunning;

        Uni<String> on(List<Integer> slice) {
            return Uni.createFrom().emitter(e -> {
                started.put(slice.get(0), e);
                mostRunning = Math.max(mostRunning, ++running);
            });
        }

        void finish(int first) {
            running--;
            started.get(first).complete("slice " + first);
        }
    }

    @Test
    void twoSlicesAreInFlightAtOnceAndTheResultsKeepSliceOrder() {
        Work work = new Work();
        List<List<Integer>> slices = Chunks.of(List.of(0, 1, 2, 3, 4), 1);
        UniAssertSubscriber<List<String>> done = Chunks.overlapped(slices, work::on)
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        assertEquals(List.of(0, 1), new ArrayList<>(work.started.keySet()), "the first two slices start together");
        work.finish(1); // the second answers first
        assertEquals(List.of(0, 1, 2), new ArrayList<>(work.started.keySet()));
        work.finish(0);
        work.finish(2);
        work.finish(3);
        done.assertNotTerminated();
        work.finish(4);
        done.assertCompleted().assertItem(List.of("slice 0", "slice 1", "slice 2", "slice 3", "slice 4"));
        assertEquals(Chunks.IN_FLIGHT, work.mostRunning);
    }

    @Test
    void aFailedSliceFailsTheWholeAndStartsNoMore() {
        Work work = new Work();
        UniAssertSubscriber<List<String>> done = Chunks.overlapped(Chunks.of(List.of(0, 1, 2, 3), 1), work::on)
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        work.started.get(0).fail(new IllegalStateException("the statement failed"));
        done.assertFailedWith(IllegalStateException.class, "the statement failed");
        assertEquals(List.of(0, 1), new ArrayList<>(work.started.keySet()));
    }

    @Test
    void oneSliceIsRunAlone() {
        Work work = new Work();
        UniAssertSubscriber<List<String>> done = Chunks.overlapped(List.of(List.of(7, 8)), work::on)
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        work.finish(7);
        done.assertCompleted().assertItem(List.of("slice 7"));
    }

    /** Preparations handed to the workers, run when the test says so. */
    private static final class Workers implements Executor {
        final List<Runnable> queued = new ArrayList<>();

        @Override
        public void execute(Runnable command) {
            queued.add(command);
        }

        void runQueued() {
            List<Runnable> now = new ArrayList<>(queued);
            queued.clear();
            now.forEach(Runnable::run);
        }
    }

    @Test
    void slicesArePreparedAheadOfTheirTurnAndEachGetsItsOwn() {
        Work work = new Work();
        Workers workers = new Workers();
        List<Integer> prepared = new ArrayList<>();
        UniAssertSubscriber<List<String>> done = Chunks.overlapped(Chunks.of(List.of(0, 1, 2, 3, 4, 5), 1),
                        slice -> {
                            prepared.add(slice.get(0));
                            return "prepared " + slice.get(0);
                        },
                        parameters -> work.on(List.of(Integer.parseInt(parameters.substring("prepared ".length())))),
                        workers)
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        assertEquals(Chunks.IN_FLIGHT + Chunks.AHEAD, workers.queued.size(),
                "the slices in flight and those ahead of them are handed to the workers, no more");
        assertTrue(work.started.isEmpty(), "no statement runs before its parameters are built");
        workers.runQueued();
        assertEquals(List.of(0, 1, 2, 3), prepared);
        assertEquals(List.of(0, 1), new ArrayList<>(work.started.keySet()));
        work.finish(0);
        assertEquals(1, workers.queued.size(), "the next turn hands one more slice to the workers");
        assertEquals(List.of(0, 1, 2), new ArrayList<>(work.started.keySet()), "a slice prepared before runs at once");
        workers.runQueued();
        work.finish(1);
        assertEquals(1, workers.queued.size(), "the last slice is handed over two turns before its own");
        workers.runQueued();
        work.finish(2);
        work.finish(3);
        assertTrue(workers.queued.isEmpty(), "no slice is prepared twice");
        work.finish(4);
        done.assertNotTerminated();
        work.finish(5);
        done.assertCompleted().assertItem(List.of("slice 0", "slice 1", "slice 2", "slice 3", "slice 4", "slice 5"));
        assertEquals(List.of(0, 1, 2, 3, 4, 5), prepared);
    }

    @Test
    void aFailedPreparationFailsTheWholeWithItsOwnError() {
        Work work = new Work();
        Workers workers = new Workers();
        UniAssertSubscriber<List<String>> done = Chunks.overlapped(Chunks.of(List.of(0, 1, 2), 1),
                        slice -> {
                            if (slice.get(0) == 1) {
                                throw new IllegalArgumentException("fact cannot be serialised");
                            }
                            return slice;
                        }, work::on, workers)
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        workers.runQueued();
        done.assertFailedWith(IllegalArgumentException.class, "fact cannot be serialised");
    }

    @Test
    void preparationRunsOnTheWorkersAndEachSliceOnTheCallersContext() throws Exception {
        Vertx vertx = Vertx.vertx();
        ExecutorService workers = Executors.newFixedThreadPool(2);
        try {
            Context context = vertx.getOrCreateContext();
            Set<String> preparedOn = ConcurrentHashMap.newKeySet();
            List<Boolean> ranOnContext = Collections.synchronizedList(new ArrayList<>());
            CompletableFuture<List<Integer>> done = new CompletableFuture<>();
            context.runOnContext(ignored -> {
                Thread loop = Thread.currentThread();
                Chunks.overlapped(Chunks.of(IntStream.range(0, 12).boxed().toList(), 1),
                                slice -> {
                                    preparedOn.add(Thread.currentThread() == loop ? "the context's thread" : "a worker");
                                    return slice.get(0);
                                },
                                n -> {
                                    ranOnContext.add(Thread.currentThread() == loop && Vertx.currentContext() == context);
                                    return Uni.createFrom().item(n * 10);
                                }, workers)
                        .subscribe().with(done::complete, done::completeExceptionally);
            });
            assertEquals(IntStream.range(0, 12).mapToObj(n -> n * 10).toList(), done.get(30, TimeUnit.SECONDS));
            assertEquals(Set.of("a worker"), preparedOn);
            assertEquals(Collections.nCopies(12, true), ranOnContext);
        } finally {
            workers.shutdownNow();
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void workOffTheLoopRunsOnAWorkerAndAnswersOnTheCallersContext() throws Exception {
        Vertx vertx = Vertx.vertx();
        ExecutorService workers = Executors.newSingleThreadExecutor();
        try {
            Context context = vertx.getOrCreateContext();
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            CompletableFuture<Integer> done = new CompletableFuture<>();
            context.runOnContext(ignored -> {
                Thread loop = Thread.currentThread();
                Chunks.offLoop(() -> {
                            seen.add(Thread.currentThread() == loop ? "worked on the context's thread" : "worked on a worker");
                            return 42;
                        }, workers)
                        .invoke(n -> seen.add(Thread.currentThread() == loop && Vertx.currentContext() == context
                                ? "answered on the context" : "answered elsewhere"))
                        .subscribe().with(done::complete, done::completeExceptionally);
            });
            assertEquals(42, done.get(30, TimeUnit.SECONDS));
            assertEquals(List.of("worked on a worker", "answered on the context"), seen);
        } finally {
            workers.shutdownNow();
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void workOffTheLoopThatFailsFailsWithItsOwnError() {
        ExecutorService workers = Executors.newSingleThreadExecutor();
        try {
            UniAssertSubscriber<Object> done = Chunks.offLoop(() -> {
                        throw new IllegalArgumentException("a pod's facts cannot be derived");
                    }, workers)
                    .subscribe().withSubscriber(UniAssertSubscriber.create());
            done.awaitFailure().assertFailedWith(IllegalArgumentException.class, "a pod's facts cannot be derived");
        } finally {
            workers.shutdownNow();
        }
    }
}
