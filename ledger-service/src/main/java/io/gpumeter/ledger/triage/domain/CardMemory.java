package io.gpumeter.ledger.triage.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One card's memory minute by minute around an instant: the card's own FB_USED (and FB_FREE, FB_RESERVED, which
 * give its size), and each pod's use, from HAMi's per-container series where there is one, else from the processes
 * nvidia-smi named the pod for. A pod's use in a minute is the sum of its containers' (or processes') highest reads.
 *
 * @param registeredMib the card's memory as its node registered it; the size when the card's series do not tell it
 */
public record CardMemory(String gpuUuid, Long registeredMib, List<MemoryMinute> minutes) {

    public CardMemory {
        minutes = minutes == null ? List.of() : List.copyOf(minutes);
    }

    /** The minutes that hold any read, in order. */
    public List<Instant> times() {
        TreeSet<Instant> out = new TreeSet<>();
        minutes.forEach(m -> out.add(m.minute()));
        return List.copyOf(out);
    }

    /** The card's FB_USED in that minute, or null. */
    public Double used(Instant minute) {
        return device("FB_USED_MIB", minute);
    }

    /** The card's size: FB_USED + FB_FREE (+ FB_RESERVED) where the minute has both, else what its node registered. */
    public Double capacity(Instant minute) {
        Double used = used(minute);
        Double free = device("FB_FREE_MIB", minute);
        if (used != null && free != null) {
            Double reserved = device("FB_RESERVED_MIB", minute);
            return used + free + (reserved == null ? 0 : reserved);
        }
        return registeredMib == null ? null : registeredMib.doubleValue();
    }

    /** Each pod's memory on the card in that minute, keyed {@code ns/pod}. */
    public Map<String, Double> pods(Instant minute) {
        Map<String, Double> hami = new TreeMap<>();
        Map<String, Double> processes = new TreeMap<>();
        for (MemoryMinute m : minutes) {
            String pod = m.podKey();
            if (pod == null || !m.minute().equals(minute)) {
                continue;
            }
            if ("CONTAINER".equals(m.scope()) && "VGPU_MEMORY_USED_MIB".equals(m.field())) {
                hami.merge(pod, m.maxMib(), Double::sum);
            } else if ("PROCESS".equals(m.scope()) && "FB_USED_MIB".equals(m.field())) {
                processes.merge(pod, m.maxMib(), Double::sum);
            }
        }
        Map<String, Double> out = new TreeMap<>(processes);
        out.putAll(hami);
        return out;
    }

    /** A pod's HAMi limit on the card in that minute (the sum of its containers'), or null. */
    public Double limit(String podKey, Instant minute) {
        Double sum = null;
        for (MemoryMinute m : minutes) {
            if ("CONTAINER".equals(m.scope()) && "VGPU_MEMORY_LIMIT_MIB".equals(m.field()) && m.minute().equals(minute)
                    && podKey.equals(m.podKey())) {
                sum = (sum == null ? 0 : sum) + m.maxMib();
            }
        }
        return sum;
    }

    /** The minute of [from, to] in which the card's FB_USED was highest, or null without any. */
    public Instant fullest(Instant from, Instant to) {
        Instant best = null;
        double most = -1;
        for (Instant t : times()) {
            Double used = used(t);
            if (!t.isBefore(from) && !t.isAfter(to) && used != null && used > most) {
                most = used;
                best = t;
            }
        }
        return best;
    }

    /** The minutes of [from, to] in which the pod's own use was read, in order. */
    public List<Instant> podTimes(String podKey, Instant from, Instant to) {
        List<Instant> out = new ArrayList<>();
        for (Instant t : times()) {
            if (!t.isBefore(from) && !t.isAfter(to) && pods(t).containsKey(podKey)) {
                out.add(t);
            }
        }
        return out;
    }

    private Double device(String field, Instant minute) {
        for (MemoryMinute m : minutes) {
            if ("DEVICE".equals(m.scope()) && field.equals(m.field()) && m.minute().equals(minute)) {
                return m.maxMib();
            }
        }
        return null;
    }
}
