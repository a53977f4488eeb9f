package io.gpumeter.collector.kubernetes;

import io.gpumeter.common.fact.DriverSightingFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.StackWorkloadFact;
import io.gpumeter.common.fact.WatchEventType;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Lets through a GPU-stack fact only when what it says differs from the last one let through for the same object.
 * A node writes its status every few minutes, a DaemonSet its counts on every change of its pods, and an exporter
 * repeats the driver version on every sample: versions that say the same again are heartbeats, not news. Compared
 * are the fact's fields without its resource version and time; a deletion always goes, and forgets the object.
 * <p>
 * Bounded: past its capacity the object heard of least recently is forgotten, and its next version goes again (the
 * ledger stores a fact once by its natural key, so a repeat costs a row read, never a wrong book). Keys carry the
 * cluster, so one memory serves the facts of several. Thread-safe.
 */
public final class ContentChanges {

    private record NodeContent(String uid, Object createdAt, Object capacity, Object allocatable, boolean unschedulable,
                               Object taints, Object gpuLabels, Object suiteAnnotations) {
    }

    private record WorkloadContent(String uid, String component, Object images) {
    }

    private record PodContent(String uid, String component, String node, Object images, String phase, boolean ready,
                              int restarts, String waitingReason) {
    }

    private final Map<String, Object> last;

    /** @param capacity how many objects are remembered at most */
    public ContentChanges(int capacity) {
        this.last = new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Object> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * True when the fact must be sent, and then remembered as sent: any fact this memory does not compare, a deletion,
     * or a fact whose content is not the last one sent for its object.
     */
    public synchronized boolean isNews(String cluster, Object fact) {
        String key = key(cluster, fact);
        if (key == null) {
            return true;
        }
        if (type(fact) == WatchEventType.DELETED) {
            last.remove(key);
            return true;
        }
        Object content = content(fact);
        Object before = last.put(key, content);
        return !content.equals(before);
    }

    /** Forgets the fact's object, so that its next fact goes whatever it says: for a fact that was not delivered. */
    public synchronized void forget(String cluster, Object fact) {
        String key = key(cluster, fact);
        if (key != null) {
            last.remove(key);
        }
    }

    /** Forgets every object. */
    public synchronized void clear() {
        last.clear();
    }

    public synchronized int size() {
        return last.size();
    }

    private static String key(String cluster, Object fact) {
        String c = cluster == null ? "" : cluster;
        if (fact instanceof NodeStatusFact n) {
            return c + "/node/" + n.name();
        }
        if (fact instanceof StackWorkloadFact w) {
            return c + "/workload/" + w.namespace() + "/" + w.kind() + "/" + w.name();
        }
        if (fact instanceof StackPodFact p) {
            return c + "/pod/" + p.namespace() + "/" + p.name();
        }
        if (fact instanceof DriverSightingFact d) {
            return c + "/driver/" + d.source() + "/" + d.node() + "/" + d.gpuUuid();
        }
        return null;
    }

    private static WatchEventType type(Object fact) {
        if (fact instanceof NodeStatusFact n) {
            return n.type();
        }
        if (fact instanceof StackWorkloadFact w) {
            return w.type();
        }
        if (fact instanceof StackPodFact p) {
            return p.type();
        }
        return null;
    }

    private static Object content(Object fact) {
        if (fact instanceof NodeStatusFact n) {
            return new NodeContent(n.uid(), n.createdAt(), n.capacity(), n.allocatable(), n.unschedulable(), n.taints(),
                    n.gpuLabels(), n.suiteAnnotations());
        }
        if (fact instanceof StackWorkloadFact w) {
            return new WorkloadContent(w.uid(), w.component(), w.images());
        }
        if (fact instanceof StackPodFact p) {
            return new PodContent(p.uid(), p.component(), p.node(), p.images(), p.phase(), p.ready(), p.restarts(),
                    p.waitingReason());
        }
        return ((DriverSightingFact) fact).version();
    }
}
