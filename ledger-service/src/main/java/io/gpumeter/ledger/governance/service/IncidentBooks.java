package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.fact.XidFact;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.governance.domain.DcgmHealthIncidents;
import io.gpumeter.ledger.governance.domain.DcgmXidIncidents;
import io.gpumeter.ledger.governance.domain.HealthReading;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.domain.NodeIncidents;
import io.gpumeter.ledger.governance.domain.NodeOomIncidents;
import io.gpumeter.ledger.governance.domain.XidReading;
import io.gpumeter.ledger.governance.repository.IncidentRepository;
import io.gpumeter.ledger.governance.repository.IncidentSourceRepository;
import io.gpumeter.ledger.repository.ClusterLock;
import io.gpumeter.ledger.repository.FactRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The failure books fed by the metering intakes and by node events: dcgm-exporter Xid gauge changes (scope
 * {@code dcgm}, one subject per card UUID), its memory-health series turning bad (scope {@code dcgm-health}, per
 * card UUID), cards vanishing from a node's registration and MIG reconfigurations
 * (scope {@code node}, per node), and kernel OOM events no container accounts for (scope {@code node-oom}, per
 * node). Each is re-derived from all stored facts of its subject and replaces that subject's rows; a subject whose
 * facts cannot be derived is logged and counted ({@link SkippedBooks}), never failing the batch.
 */
@ApplicationScoped
public class IncidentBooks {

    private final IncidentSourceRepository source;
    private final IncidentRepository incidents;
    private final FactRepository facts;
    private final LedgerConfig config;
    private final SkippedBooks skipped;

    public IncidentBooks(IncidentSourceRepository source, IncidentRepository incidents, FactRepository facts,
                         LedgerConfig config, SkippedBooks skipped) {
        this.skipped = skipped;
        this.source = source;
        this.incidents = incidents;
        this.facts = facts;
        this.config = config;
    }

    /**
     * Stores the Xid gauge readings of a usage delivery and re-derives the cards where the gauge took a new value.
     * The governance lock is taken only then (the kernel-log Xids the derivation reads are written under it), so
     * the steady repetition of one value costs no more than its insert.
     */
    public Uni<Void> recordXidGauge(SqlConnection conn, String cluster, List<UsageSample> samples) {
        List<XidReading> readings = XidReading.runBoundaries(samples);
        if (readings.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return source.addXidReadings(conn, cluster, readings).chain(cards -> cards.isEmpty()
                ? Uni.createFrom().voidItem()
                : ClusterLock.take(conn, ClusterLock.GOVERNANCE, cluster).chain(() -> deriveGauged(conn, cluster, cards)));
    }

    /** Re-derives the dcgm Xid incidents of these cards (UUIDs). */
    public Uni<Void> deriveGauged(SqlConnection conn, String cluster, Collection<String> uuids) {
        if (uuids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return source.xidReadings(conn, cluster, uuids).chain(readings -> source.kernelXids(conn, cluster, uuids)
                .chain(kernel -> source.announcementsOf(conn, cluster, uuids).chain(announced -> {
                    Map<String, List<XidReading>> byCard = readings.stream().collect(Collectors.groupingBy(XidReading::gpuUuid));
                    List<Incident> found = new ArrayList<>();
                    for (String uuid : uuids) {
                        List<XidFact> kernelOfCard = kernel.stream().filter(x -> uuid.equals(x.gpuUuid())).toList();
                        List<GpuAddressFact> back = announced.stream().filter(a -> uuid.equals(a.gpuUuid())).toList();
                        skipped.derive("gauge", "Xid gauge of " + uuid, () -> found.addAll(DcgmXidIncidents.derive(uuid,
                                byCard.getOrDefault(uuid, List.of()), kernelOfCard, back, config.failures().dcgmXidTolerance())));
                    }
                    return incidents.replace(conn, cluster, "dcgm", uuids, found);
                })));
    }

    /**
     * Stores the memory-health readings of a usage delivery and re-derives the cards where a signal took a new value.
     * The derivation reads nothing but these readings, written under the ingest lock the delivery already holds, so
     * no governance lock is needed; a steady repetition of one value costs no more than its insert.
     */
    public Uni<Void> recordHealthGauges(SqlConnection conn, String cluster, List<UsageSample> samples) {
        List<HealthReading> readings = HealthReading.runBoundaries(samples);
        if (readings.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return source.addHealthReadings(conn, cluster, readings).chain(cards -> deriveHealth(conn, cluster, cards));
    }

    /** Re-derives the GPU health incidents of these cards (UUIDs) from all their stored readings. */
    Uni<Void> deriveHealth(SqlConnection conn, String cluster, Collection<String> uuids) {
        if (uuids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return source.healthReadings(conn, cluster, uuids).chain(readings -> {
            Map<String, List<HealthReading>> byCard = readings.stream().collect(Collectors.groupingBy(HealthReading::gpuUuid));
            List<Incident> found = new ArrayList<>();
            for (String uuid : uuids) {
                skipped.derive("gpu-health", "memory health of " + uuid,
                        () -> found.addAll(DcgmHealthIncidents.derive(uuid, byCard.getOrDefault(uuid, List.of()))));
            }
            return incidents.replace(conn, cluster, DcgmHealthIncidents.SCOPE, uuids, found);
        });
    }

    /** Re-derives the dcgm Xid incidents of gauged cards at these node|pci addresses (or named by UUID). */
    Uni<Void> deriveGaugedAt(SqlConnection conn, String cluster, Collection<String> cards, Collection<String> uuids) {
        if (cards.isEmpty() && uuids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return source.gaugedCardsAt(conn, cluster, cards, uuids).chain(gauged -> deriveGauged(conn, cluster, gauged));
    }

    /** Re-derives the GPU-lost and MIG reconfiguration incidents of these nodes from all their versions. */
    public Uni<Void> deriveNodes(SqlConnection conn, String cluster, Set<String> nodes) {
        if (nodes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return facts.nodeVersions(conn, cluster, nodes).chain(versions -> {
            Map<String, List<NodeFact>> byNode = versions.stream().collect(Collectors.groupingBy(NodeFact::name));
            List<Incident> found = new ArrayList<>();
            byNode.forEach((node, vs) -> skipped.derive("node", "node " + node, () -> found.addAll(NodeIncidents.derive(vs))));
            return incidents.replace(conn, cluster, "node", nodes, found);
        });
    }

    /** Re-derives the node-level OOM incidents of these nodes: the OOM events no OOMKilled container accounts for. */
    Uni<Void> deriveNodeOoms(SqlConnection conn, String cluster, Set<String> nodes) {
        if (nodes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return source.nodeOomEvents(conn, cluster, nodes).chain(events -> source.oomKilledPodsOn(conn, cluster, nodes)
                .chain(pods -> {
                    List<Incident> found = new ArrayList<>();
                    for (String node : nodes) {
                        List<EventFact> mine = events.stream().filter(e -> node.equals(e.involvedName())).toList();
                        List<PodStatusFact> onNode = pods.stream().filter(p -> node.equals(p.nodeName())).toList();
                        skipped.derive("node-oom", "OOM events of node " + node, () -> found.addAll(NodeOomIncidents.derive(node, mine,
                                NodeOomIncidents.terminations(onNode, node), config.failures().oomEventTolerance())));
                    }
                    return incidents.replace(conn, cluster, "node-oom", nodes, found);
                }));
    }

    /** The nodes among these that have kernel OOM events, whose linking a change of their pods may alter. */
    Uni<Set<String>> nodesWithOomEvents(SqlConnection conn, String cluster, Set<String> nodes) {
        return nodes.isEmpty() ? Uni.createFrom().item(Set.of()) : source.nodesWithOomEvents(conn, cluster, nodes);
    }
}
