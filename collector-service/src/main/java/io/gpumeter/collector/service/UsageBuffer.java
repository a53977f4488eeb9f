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

    /** The values of one series-minute, in arrival order; {@code seconds} has bit n set when second n is held. */
    private static final class Minute {
        private long seconds;
        private int[] millis = new int[4];
        private double[] values = new double[4];
        private int size;

        /** @return whether the value is on a second not held before */
        boolean offer(int millisIntoMinute, double value) {
            int second = millisIntoMinute / 1000;
            if ((seconds & (1L << second)) != 0) {
                for (int i = 0; i < size; i++) {
                    if (millis[i] / 1000 == second && millisIntoMinute < millis[i]) {
                        millis[i] = millisIntoMinute;
                        values[i] = value;
                    }
                }
                return false;
            }
            if (size == millis.length) {
                millis = Arrays.copyOf(millis, Math.min(60, size * 2));
                values = Arrays.copyOf(values, millis.length);
            }
            seconds |= 1L << second;
            millis[size] = millisIntoMinute;
            values[size++] = value;
            return true;
        }
    }

    private final int capacity;
    private final int batchValues;
    private final Consumer<UsageBatch> send;
    private final Object lock = new Object();
    private Map<SeriesMinute, Minute> open = new HashMap<>();
    private int openValues;
    private final Deque<UsageBatch> sealed = new ArrayDeque<>();
    private int sealedValues;

    /**
     * @param capacity    most values held, open and sealed together
     * @param batchValues most values in one batch sent to the ledger
     * @param send        delivers one batch, throwing when the ledger did not take it
     */
    public UsageBuffer(int capacity, int batchValues, Consumer<UsageBatch> send) {
        this.capacity = capacity;
        this.batchValues = batchValues;
        this.send = send;
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
                if (open.computeIfAbsent(key, k -> new Minute()).offer((int) (epochMillis - minute * 60_000L), s.value())) {
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
     * Seals what is open and sends every sealed batch; returns the values delivered. Stops at the first batch the
     * ledger could not be reached with, keeping it and the rest; a batch the ledger refused (4xx) is kept too but
     * goes to the back, so it cannot hold up the others.
     */
    public synchronized int flush() {
        seal();
        int sent = 0;
        int attempts;
        synchronized (lock) {
            attempts = sealed.size();
        }
        for (int i = 0; i < attempts; i++) {
            UsageBatch batch;
            synchronized (lock) {
                batch = sealed.peekFirst();
            }
            try {
                send.accept(batch);
            } catch (ApiProblem e) {
                LOG.errorf("the ledger refused %d usage values, kept to retry: %s", batch.values(), e.getMessage());
                synchronized (lock) {
                    sealed.addLast(sealed.pollFirst());
                }
                continue;
            } catch (RuntimeException e) {
                LOG.warnf("ledger did not take %d usage values, will retry: %s", batch.values(), e.getMessage());
                break;
            }
            synchronized (lock) {
                sealed.pollFirst();
                sealedValues -= batch.values();
            }
            sent += batch.values();
        }
        return sent;
    }

    /** Turns the open series-minutes into batches of partials, per cluster, at most {@code batchValues} values each. */
    private void seal() {
        Map<SeriesMinute, Minute> taken;
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
