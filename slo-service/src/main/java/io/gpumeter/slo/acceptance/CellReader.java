package io.gpumeter.slo.acceptance;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.client.Occupant;
import io.gpumeter.slo.client.PodHoldings;
import io.gpumeter.slo.client.PodQueue;
import io.gpumeter.slo.domain.LatencyHistograms;
import io.gpumeter.slo.domain.PodMinute;
import io.gpumeter.slo.domain.Sli;
import io.gpumeter.slo.domain.SloDefinition;
import io.gpumeter.slo.domain.SloSelector;
import io.gpumeter.slo.repository.EngineGaugeRepository;
import io.gpumeter.slo.repository.LatencyRepository;
import io.gpumeter.slo.service.ServiceNamespaces;
import io.gpumeter.slo.service.SloEvents;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads a cell: its pods' stored latency minutes (selected as SLOs select theirs) and what the ledger holds of those
 * pods — the units they held and the queues they went through.
 */
@ApplicationScoped
public class CellReader {

    private static final List<Sli> LATENCIES = List.of(Sli.TTFT, Sli.ITL, Sli.E2E);

    private final LatencyRepository latency;
    private final SloEvents events;
    private final LedgerReads ledger;
    private final EngineGaugeRepository gauges;

    private final JitterEventReads jitter;

    public CellReader(LatencyRepository latency, SloEvents events, LedgerReads ledger, EngineGaugeRepository gauges,
                      JitterEventReads jitter) {
        this.gauges = gauges;
        this.latency = latency;
        this.events = events;
        this.ledger = ledger;
        this.jitter = jitter;
    }

    /**
     * The plan with each cell that names only a service pinned to the only namespace whose pods reported it in the
     * window: a service is known by its namespace and name, and the same name in another tenant's namespace is
     * another service, never merged into the cell.
     *
     * @throws io.gpumeter.common.problem.ApiProblem 400 naming {@code cells[i].selector.namespace} when several
     *                                               namespaces report a cell's service in the window
     */
    public Uni<Plan> pin(Plan plan) {
        TimeWindow window = new TimeWindow(plan.from(), plan.to());
        List<Plan.Cell> pinned = new ArrayList<>(plan.cells());
        Uni<Void> all = Uni.createFrom().voidItem();
        for (int i = 0; i < pinned.size(); i++) {
            int at = i;
            Plan.Cell cell = pinned.get(at);
            Plan.Selector s = cell.selector();
            if (s.service() == null || s.namespace() != null || s.tenant() != null) {
                continue;
            }
            all = all.chain(() -> latency.namespacesOf(s.service(), window).invoke(found -> {
                if (found.size() > 1) {
                    throw ServiceNamespaces.ambiguous("cells[" + at + "].selector.namespace", "cell '" + cell.name()
                            + "' names service '" + s.service() + "' alone; its name", found, " in the plan's window");
                }
                if (found.size() == 1) {
                    pinned.set(at, new Plan.Cell(cell.name(), cell.workload(), cell.form(),
                            new Plan.Selector(s.service(), found.get(0), null)));
                }
            })).replaceWithVoid();
        }
        return all.map(done -> new Plan(plan.name(), plan.from(), plan.to(), List.copyOf(pinned), plan.assertions()));
    }

    public Uni<CellData> read(Plan.Cell cell, TimeWindow window) {
        Map<Sli, CellData.SliData> bySli = new EnumMap<>(Sli.class);
        Uni<Void> latencies = Uni.createFrom().voidItem();
        for (Sli sli : LATENCIES) {
            latencies = latencies.chain(() -> minutes(cell, sli, window).invoke(m -> bySli.put(sli, summarise(m))))
                    .replaceWithVoid();
        }
        return latencies.chain(() -> minutes(cell, Sli.AVAILABILITY, window)).chain(requests -> {
            Set<String> pods = new TreeSet<>();
            Set<String> services = new TreeSet<>();
            requests.forEach(m -> {
                pods.add(m.podKey());
                services.add(m.namespace() + "/" + m.service());
            });
            Map<Instant, long[]> perMinute = new TreeMap<>();
            for (PodMinute m : requests) {
                long[] sums = perMinute.computeIfAbsent(m.minute(), k -> new long[2]);
                sums[0] += m.requests();
                sums[1] += m.failed();
            }
            List<CellData.RequestPoint> curve = new ArrayList<>();
            perMinute.forEach((minute, sums) -> curve.add(new CellData.RequestPoint(minute, sums[0], sums[1])));
            long total = curve.stream().mapToLong(CellData.RequestPoint::requests).sum();
            long failed = curve.stream().mapToLong(CellData.RequestPoint::failed).sum();
            List<Run.Call> calls = new ArrayList<>();
            return gauges.tokenReadings(pods, window).chain(tokens -> ledger.holdings(pods, window)
                    .chain(held -> ledger.podQueues(pods).chain(queues -> ledger.podIncidents(pods, window)
                    .chain(incidents -> jitter.of(services, window).map(jitterEvents -> {
                calls.add(held.call());
                calls.add(queues.call());
                List<Run.PodFact> facts = facts(cell.name(), held.answer());
                return new CellData(cell, List.copyOf(pods), Map.copyOf(bySli), total, failed, curve.size(),
                        List.copyOf(curve), gpus(held.answer()), facts, clusterQueues(queues.answer()),
                        List.copyOf(calls), tokens, createdAt(queues.answer()), okMinutes(requests), incidents,
                        jitterEvents, window);
            })))));
        });
    }

    /** Each known pod's creation, from the pod queues read. */
    private static Map<String, Instant> createdAt(List<PodQueue> queues) {
        Map<String, Instant> out = new TreeMap<>();
        if (queues != null) {
            queues.stream().filter(q -> q != null && q.known() && q.createdAt() != null)
                    .forEach(q -> out.put(q.namespace() + "/" + q.pod(), q.createdAt()));
        }
        return out;
    }

    /** Each pod's minutes in which at least one request succeeded (requests over failures), in order. */
    static Map<String, List<Instant>> okMinutes(List<PodMinute> requests) {
        Map<String, Set<Instant>> byPod = new TreeMap<>();
        for (PodMinute m : requests) {
            if (m.requests() > m.failed()) {
                byPod.computeIfAbsent(m.podKey(), k -> new TreeSet<>()).add(m.minute());
            }
        }
        Map<String, List<Instant>> out = new TreeMap<>();
        byPod.forEach((pod, minutes) -> out.put(pod, List.copyOf(minutes)));
        return out;
    }

    /**
     * The cell's pod-minutes of one SLI, selected by service in its namespace, by namespace (every service of it), or
     * by tenant (narrowed by the others if named). A service without a namespace is one {@link #pin} found no pod of.
     */
    private Uni<List<PodMinute>> minutes(Plan.Cell cell, Sli sli, TimeWindow window) {
        Plan.Selector s = cell.selector();
        if (s.tenant() != null) {
            SloDefinition bySelector = new SloDefinition(cell.name(), new SloSelector(s.service(), s.tenant(),
                    s.namespace()), sli, null, null, null);
            return events.podMinutes(bySelector, window).map(SloEvents.Selected::pods);
        }
        if (s.namespace() == null) {
            return Uni.createFrom().item(List.of());
        }
        return latency.podMinutes(sli, s.service(), s.namespace(), null, window);
    }

    private static CellData.SliData summarise(List<PodMinute> minutes) {
        Histogram total = LatencyHistograms.empty();
        Map<Instant, Histogram> byMinute = new TreeMap<>();
        for (PodMinute m : minutes) {
            LatencyHistograms.mergeInto(byMinute.computeIfAbsent(m.minute(), k -> LatencyHistograms.empty()),
                    m.histogram());
        }
        List<CellData.MinutePoint> curve = new ArrayList<>();
        byMinute.forEach((minute, h) -> {
            total.add(h);
            curve.add(new CellData.MinutePoint(minute, LatencyHistograms.summary(h)));
        });
        return new CellData.SliData(LatencyHistograms.summary(total), List.copyOf(curve));
    }

    private static List<Run.PodFact> facts(String cell, Map<String, List<PodHoldings.Holding>> held) {
        List<Run.PodFact> out = new ArrayList<>();
        if (held == null) {
            return out;
        }
        new TreeMap<>(held).forEach((pod, units) -> units.stream().map(PodHoldings.Holding::occupant)
                .map(o -> fact(cell, o)).distinct().forEach(out::add));
        return out;
    }

    private static Run.PodFact fact(String cell, Occupant o) {
        Occupant.Unit u = o.unit();
        return new Run.PodFact(cell, o.namespace(), o.pod(), o.node(), o.gpuUuid(), u == null ? null : u.kind(),
                u == null ? null : u.migProfile(), u == null ? null : u.cores(), u == null ? null : u.memoryMiB(),
                o.fraction(), o.ownerKind(), o.owner() == null ? null : o.owner().name(), o.tenant());
    }

    /** Each pod's distinct units, a whole card as 1 and a share as its fraction, summed over the cell's pods. */
    private static double gpus(Map<String, List<PodHoldings.Holding>> held) {
        if (held == null) {
            return 0;
        }
        Map<String, BigDecimal> units = new TreeMap<>();
        held.forEach((pod, list) -> list.forEach(h -> {
            Occupant o = h.occupant();
            if (o.gpuUuid() != null) {
                String unit = pod + "|" + o.gpuUuid() + "|" + (o.unit() == null ? "" : o.unit().kind() + o.unit().migInstance());
                units.put(unit, o.fraction() == null ? BigDecimal.ONE : o.fraction());
            }
        }));
        return units.values().stream().mapToDouble(BigDecimal::doubleValue).sum();
    }

    private static List<String> clusterQueues(List<PodQueue> queues) {
        if (queues == null) {
            return List.of();
        }
        return queues.stream().filter(q -> q.queue() != null && q.queue().clusterQueue() != null)
                .map(q -> q.queue().clusterQueue()).distinct().sorted().toList();
    }
}
