package io.gpumeter.ledger.inventory.domain;

import java.time.Duration;
import java.time.Instant;

/**
 * When a node and its cards enter the inventory (ADR 6), the one rule every inventory read follows — capacity,
 * supply and fragmentation alike. A node is in the inventory from when it joined the cluster, not from when the
 * collector first saw it: a cluster installed yesterday, or replayed, had its nodes long before.
 * <p>
 * A node's life starts at the earlier of its first observation and its {@code metadata.creationTimestamp}, which its
 * status versions carry ({@code createdAt}) for the uid the life has. Its cards that came with that first sighting
 * count from the same start; cards registered later count from when they were first seen.
 * <p>
 * "Came with the first sighting" allows {@link #WITH_FIRST_SIGHTING}, from how registrations arrive: HAMi's
 * registration is an annotation of the node, so its cards are first seen in the very version that first shows the
 * node; NVIDIA's DRA driver publishes ResourceSlices, which the collector dates when it sees them, while a node's
 * version is dated by its latest managedFields write — up to kubelet's five-minute status report before the
 * collector's own first sight of it — and the informers list nodes and slices a few seconds to minutes apart.
 */
public final class InventoryStart {

    /** How long after a node's first observation a card first seen still came with that first sighting. */
    public static final Duration WITH_FIRST_SIGHTING = Duration.ofMinutes(15);

    private InventoryStart() {
    }

    /**
     * When a node's life began: the earlier of its first observation and its creation (null when no status version
     * of the life's uid tells it), never before {@code notBefore} (the end of the node's previous life, null for
     * the first) — a name deleted and created again is two lives that do not overlap.
     */
    public static Instant node(Instant firstObserved, Instant created, Instant notBefore) {
        Instant start = created != null && created.isBefore(firstObserved) ? created : firstObserved;
        return notBefore != null && start.isBefore(notBefore) ? notBefore : start;
    }

    /** Whether a card (or a ResourceSlice) first seen at {@code firstSeen} came with a life first observed then. */
    public static boolean withFirstSighting(Instant firstSeen, Instant lifeObserved) {
        return !firstSeen.isAfter(lifeObserved.plus(WITH_FIRST_SIGHTING));
    }

    /**
     * When a card first seen at {@code firstSeen}, on a node life first observed at {@code lifeObserved} and begun at
     * {@code lifeStart}, entered the inventory: the life's start when it came with the first sighting, else its
     * first sighting.
     */
    public static Instant card(Instant firstSeen, Instant lifeObserved, Instant lifeStart) {
        if (!withFirstSighting(firstSeen, lifeObserved)) {
            return firstSeen;
        }
        return lifeStart.isBefore(firstSeen) ? lifeStart : firstSeen;
    }
}
