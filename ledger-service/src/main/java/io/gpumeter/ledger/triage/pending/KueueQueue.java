package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.QuotaLine;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What Kueue says of a pending Workload's queue at an instant: its ClusterQueue (quota, reservation, whether it is
 * active), the Workload's place in it as the visibility API last listed it, and what the Workload asks for in all.
 *
 * @param clusterQueue the ClusterQueue's version at the instant; null when the ledger holds none
 * @param position     its latest position by the instant; null when Kueue's visibility API never listed it
 * @param asks         the Workload's requests summed over its pod sets (count × per pod)
 */
public record KueueQueue(QueueObjectFact clusterQueue, Position position, Map<String, BigDecimal> asks) {

    public KueueQueue {
        asks = asks == null ? Map.of() : Map.copyOf(asks);
    }

    /**
     * A place in the queues.
     *
     * @param inClusterQueue 0 = next to be considered; also how many workloads are ahead of it
     */
    public record Position(int inClusterQueue, Integer inLocalQueue, Integer priority, Instant observedAt) {
    }

    /** The ClusterQueue's Active condition when it is False, else null. */
    public ObjectCondition inactive() {
        if (clusterQueue == null) {
            return null;
        }
        for (ObjectCondition c : clusterQueue.conditions()) {
            if ("Active".equals(c.type()) && "False".equals(c.status())) {
                return c;
            }
        }
        return null;
    }

    /** One resource of one flavor as the ClusterQueue holds it now, and whether the Workload's ask fits in it. */
    public record Room(String flavor, String resource, BigDecimal nominal, BigDecimal borrowingLimit,
                       BigDecimal reserved, BigDecimal ask) {

        /** What is left to reserve: nominal, plus what it may borrow, less what is reserved. */
        public BigDecimal free() {
            BigDecimal limit = nominal == null ? BigDecimal.ZERO : nominal;
            if (borrowingLimit != null) {
                limit = limit.add(borrowingLimit);
            }
            return limit.subtract(reserved == null ? BigDecimal.ZERO : reserved);
        }

        public boolean fits() {
            return free().compareTo(ask) >= 0;
        }
    }

    /** The quota lines of the resources the Workload asks for, each with its ask. */
    public List<Room> rooms() {
        List<Room> out = new ArrayList<>();
        if (clusterQueue == null) {
            return out;
        }
        for (QuotaLine line : clusterQueue.quotas()) {
            BigDecimal ask = asks.get(line.resource());
            if (ask != null && ask.signum() > 0) {
                out.add(new Room(line.flavor(), line.resource(), line.nominal(), line.borrowingLimit(), line.reserved(), ask));
            }
        }
        return out;
    }

    /**
     * Whether, for every resource it asks for that the ClusterQueue sets a quota on, some flavor has room for its ask;
     * null when no quota line names any of them.
     */
    public Boolean hasRoom() {
        List<Room> rooms = rooms();
        if (rooms.isEmpty()) {
            return null;
        }
        for (Room room : rooms) {
            if (rooms.stream().noneMatch(r -> r.resource().equals(room.resource()) && r.fits())) {
                return false;
            }
        }
        return true;
    }
}
