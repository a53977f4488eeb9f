package io.gpumeter.collector.service;

import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.fact.UsageScope;
import io.gpumeter.common.problem.ApiProblem;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Usage samples waiting for the ledger, gathered per series and minute so that the ledger writes a minute's rollup
 * once per delivery rather than once per scrape. A series' second is held once (the earliest reading of it wins, as
 * in the ledger). Bounded in values: a body that does not fit is refused whole, never partly kept or dropped.
 * <p>
 * A flush seals what is open into batches of per-minute partials; a batch leaves the buffer only once the ledger
 * took it, so {@link #size()} counts every value not yet delivered. The ledger counts each second of a series once,
 * so a batch sent again after a lost answer, or a later partial of a minute already sent, adds nothing twice — and
 * the order batches arrive in does not matter.
 */
public final class UsageBuffer {

    private static final Logger LOG = Logger.getLogger(UsageBuffer.class);

    /** A body that does not fit the buffer; nothing of it was kept. */
    public static final class Full extends RuntimeException {
        Full(int held, int capacity) {
            super("the usage buffer holds " + held + " of " + capacity + " values");
        }
    }

    /** What an add did: values new to the buffer, and values on a second the buffer already held. */
    public record Added(int fresh, int duplicates) {
    }

    /** One series in one minute, with everything a sample says of its series. */
    private record SeriesMinute(String cluster, String gpuUuid, String node, UsageScope scope, String scopeKey,
                                String migProfile, String namespace, String pod, String container, UsageField field,
                                long minute) {
    }

    private final int capacity;
    private final int batchValues;
    private final Consumer<UsageBatch> send;
    private final int inFlight;
    private final CompletionService<Outcome> sends;
    private final Object lock = new Object();
    private Map<SeriesMinute, MinuteValues> open = new HashMap<>();
    private int openValues;
    private final Deque<UsageBatch> sealed = new ArrayDeque<>();
    private int sealedValues;

    /** One batch at a time, sent by the flushing thread itself. */
    public UsageBuffer(int capacity, int batchValues, Consumer<UsageBatch> send) {
        this(capacity, batchValues, 1, send);
    }

    /**
     * @param capacity    most values held, open and sealed together
     * @param batchValues most values in one batch sent to the ledger
     * @param inFlight    most batches sent at once; with more than one, sends run on threads of their own
     * @param send        delivers one batch, throwing when the ledger did not take it
     */
    public UsageBuffer(int capacity, int batchValues, int inFlight, Consumer<UsageBatch> send) {
        if (inFlight < 1) {
            throw new IllegalArgumentException("inFlight must be at least 1, got " + inFlight);
        }
        this.capacity = capacity;
        this.batchValues = batchValues;
        this.inFlight = inFlight;
        this.send = send;
        this.sends = new ExecutorCompletionService<>(inFlight == 1 ? Runnable::run : Executors.newFixedThreadPool(inFlight, r -> {
            Thread t = new Thread(r, "usage-delivery");
            t.setDaemon(true);
            return t;
        }));
    }

    /** Adds a body's samples whole, or throws {@link Full} having added none. */
    public Added add(String cluster, List<UsageSample> samples) {
        synchronized (lock) {
            if (openValues + sealedValues + samples.size() > capacity) {
                throw new Full(openValues + sealedValues, capacity);
            }
            int fresh = 0;
            for (UsageSample s : samples) {
                long epochMillis = s.at().toEpochMilli();
                long minute = Math.floorDiv(epochMillis, 60_000L);
                SeriesMinute key = new SeriesMinute(cluster, s.gpuUuid(), s.node(), s.scope(), s.scopeKey(),
                        s.migProfile(), s.namespace(), s.pod(), s.container(), s.field(), minute);
                if (open.computeIfAbsent(key, k -> new MinuteValues()).offer((int) (epochMillis - minute * 60_000L), s.value())) {
                    fresh++;
                }
            }
            openValues += fresh;
            return new Added(fresh, samples.size() - fresh);
        }
    }

    /** Values not yet delivered. */
    public int size() {
        synchronized (lock) {
            return openValues + sealedValues;
        }
    }

    /** Values not yet sealed into a batch: what the next flush will add to the deliveries. */
    public int open() {
        synchronized (lock) {
            return openValues;
        }
    }

    /** Whether batches remain that the ledger did not take at the last flush. */
    public boolean stalled() {
        synchronized (lock) {
            return !sealed.isEmpty();
        }
    }

    /**
     * Seals what is open and sends every sealed batch, up to {@code inFlight} at once; returns the values delivered.
     * A full batch's worth opened meanwhile is sealed and sent in the same flush, so a backlog keeps every request
     * slot busy. After the first batch the ledger could not be reached with, no more are started; it and the rest are
     * kept, and those already in flight are awaited. A batch the ledger refused (4xx) is kept too but goes to the
     * back, so it cannot hold up the others. Batches sent side by side may carry the same series and minute (a
     * minute's first seconds and its later ones): the ledger adds each second of a series once, in any order.
     */
    public synchronized int flush() {
        Deque<UsageBatch> toSend = new ArrayDeque<>();
        Deque<UsageBatch> refused = new ArrayDeque<>();
        sealInto(toSend);
        int sent = 0;
        int running = 0;
        boolean unreachable = false;
        while (true) {
            while (!unreachable && running < inFlight && (!toSend.isEmpty() || sealFullInto(toSend))) {
                UsageBatch batch = toSend.pollFirst();
                sends.submit(() -> attempt(batch));
                running++;
            }
            if (running == 0) {
                break;
            }
            Outcome outcome = next();
            running--;
            UsageBatch batch = outcome.batch();
            if (outcome.failure() == null) {
                synchronized (lock) {
                    sealedValues -= batch.values();
                }
                sent += batch.values();
            } else if (outcome.failure() instanceof ApiProblem) {
                LOG.errorf("the ledger refused %d usage values, kept to retry: %s", batch.values(),
                        outcome.failure().getMessage());
                refused.addLast(batch);
            } else {
                LOG.warnf("ledger did not take %d usage values, will retry: %s", batch.values(),
                        outcome.failure().getMessage());
                unreachable = true;
                toSend.addFirst(batch);
            }
        }
        synchronized (lock) {
            toSend.descendingIterator().forEachRemaining(sealed::addFirst);
            sealed.addAll(refused);
        }
        return sent;
    }

    /** A send's end: the batch, and what it threw, null when the ledger took it. */
    private record Outcome(UsageBatch batch, RuntimeException failure) {
    }

    private Outcome attempt(UsageBatch batch) {
        try {
            send.accept(batch);
            return new Outcome(batch, null);
        } catch (RuntimeException e) {
            return new Outcome(batch, e);
        }
    }

    private Outcome next() {
        try {
            return sends.take().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while usage deliveries were in flight", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a usage send failed outside its attempt", e.getCause());
        }
    }

    /** Seals what is open, moving every sealed batch to {@code into}. */
    private void sealInto(Deque<UsageBatch> into) {
        seal();
        synchronized (lock) {
            into.addAll(sealed);
            sealed.clear();
        }
    }

    /** Seals what is open when it makes a full batch; whether a batch is now waiting in {@code into}. */
    private boolean sealFullInto(Deque<UsageBatch> into) {
        synchronized (lock) {
            if (openValues < batchValues) {
                return false;
            }
        }
        sealInto(into);
        return !into.isEmpty();
    }

    /** Turns the open series-minutes into batches of partials, per cluster, at most {@code batchValues} values each. */
    private void seal() {
        Map<SeriesMinute, MinuteValues> taken;
        synchronized (lock) {
            if (open.isEmpty()) {
                return;
            }
            taken = open;
            open = new HashMap<>();
        }
        Map<String, List<UsagePartial>> byCluster = new LinkedHashMap<>();
        List<UsageBatch> batches = new ArrayList<>();
        Map<String, Integer> valuesOf = new HashMap<>();
        taken.forEach((k, m) -> {
            List<UsagePartial> partials = byCluster.computeIfAbsent(k.cluster(), c -> new ArrayList<>());
            if (valuesOf.getOrDefault(k.cluster(), 0) + m.size > batchValues && !partials.isEmpty()) {
                batches.add(new UsageBatch(k.cluster(), List.of(), partials));
                partials.clear();
                valuesOf.put(k.cluster(), 0);
            }
            partials.add(new UsagePartial(k.gpuUuid(), k.node(), k.scope(), k.scopeKey(), k.migProfile(), k.namespace(),
                    k.pod(), k.container(), k.field(), Instant.ofEpochMilli(k.minute() * 60_000L),
                    Arrays.copyOf(m.millis, m.size), Arrays.copyOf(m.values, m.size)));
            valuesOf.merge(k.cluster(), m.size, Integer::sum);
        });
        byCluster.forEach((cluster, partials) -> {
            if (!partials.isEmpty()) {
                batches.add(new UsageBatch(cluster, List.of(), partials));
            }
        });
        synchronized (lock) {
            int values = batches.stream().mapToInt(UsageBatch::values).sum();
            sealed.addAll(batches);
            sealedValues += values;
            openValues -= values;
        }
    }
}
