package io.gpumeter.slo.triage;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.slo.client.Change;
import io.gpumeter.slo.client.HostSeries;
import io.gpumeter.slo.client.UsagePoint;
import io.gpumeter.slo.domain.SuspectRanking;
import io.gpumeter.slo.service.JitterEvidence;
import io.gpumeter.slo.service.PressureCurves;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * A slow spell of service ml/chat, built the way slo-service holds it: jitter event 42 (TTFT p99 over 200 ms) from
 * 10:10 to 10:20 on 2026-12-14, its pod ml/chat-0 on GPU-A of node n1, and one neighbour on that card,
 * research/train-0 (tenant beta, a PyTorchJob llama-ft there since 09:00), whose own DRAM_ACTIVE (its containers')
 * runs flat at 0.3 over the curve 10:00-10:30. The service takes 10 requests a minute from 09:00.
 * <p>
 * The host and the card as the ledger answers them over the same curve: chat-0's containers throttled in 0.02 of their
 * CFS periods, its sandbox's network 100 B/s of its node's 10,000, node n1's CPU pressure 0.05 and I/O pressure 0.01
 * stall seconds a second, GPU-A's software power cap active in none of its samples.
 * <p>
 * As built it is neither: nothing changed and the load did not rise. {@link #neighbourRises()} lifts the
 * neighbour's DRAM_ACTIVE to 0.8 from 10:07 (the three minutes before the spell); {@link #loadRises()} takes the
 * service to 30 requests a minute from 10:10; {@link #cpuThrottles()} its CFS throttling to 0.6 from 10:07,
 * {@link #ioStalls()} n1's I/O pressure to 0.5, {@link #powerCapped()} GPU-A's power cap to all of its samples. Each
 * changes that one fact and nothing else. Without {@link #hostRead} the ledger holds no host series and no
 * clocks-event reasons of them.
 */
final class ServiceFixture {

    static final Instant START = Instant.parse("2026-12-14T10:10:00Z");
    static final Instant END = Instant.parse("2026-12-14T10:20:00Z");
    static final Instant AT = Instant.parse("2026-12-14T10:15:00Z");
    static final Duration BASELINE = Duration.ofHours(1);
    static final PerformanceCause.Thresholds THRESHOLDS = new PerformanceCause.Thresholds(1.5, 0.1);
    static final TriageCommands COMMANDS = new TriageCommands("vllm:e2e_request_latency_seconds_count", "namespace",
            "service");

    String namespace = "ml";
    String neighbourPod = "train-0";
    String neighbourScope = "CONTAINER";
    Instant neighbourSince = Instant.parse("2026-12-14T09:00:00Z");
    double dramBefore = 0.3;
    double dramRecent = 0.3;
    long requestsBefore = 10;
    long requestsDuring = 10;
    boolean neighboursRead = true;
    double throttledRecent = 0.02;
    double ioRecent = 0.01;
    double powerCapRecent = 0;
    boolean hostRead = true;
    final List<Past> history = new ArrayList<>();
    final List<PerformanceDiagnosis.Other> others = new ArrayList<>();
    final Map<String, String> extraTenants = new LinkedHashMap<>();

    /** A past spell of the service: its neighbour's DRAM rise (0: none) and its requests during (against 10). */
    record Past(long id, Instant start, double dramRise, long requestsDuring) {
    }

    ServiceFixture neighbourRises() {
        dramRecent = 0.8;
        return this;
    }

    ServiceFixture loadRises() {
        requestsDuring = 30;
        return this;
    }

    ServiceFixture cpuThrottles() {
        throttledRecent = 0.6;
        return this;
    }

    ServiceFixture ioStalls() {
        ioRecent = 0.5;
        return this;
    }

    ServiceFixture powerCapped() {
        powerCapRecent = 1;
        return this;
    }

    /**
     * The host's and the card's pressures around a spell starting at {@code start}, from what the ledger answers
     * over 10 minutes before to 20 after, each value changing to its recent one 3 minutes before the start.
     */
    PressureCurves.Found host(Instant start, double throttled, double io, double powerCap) {
        List<HostSeries.ContainerPoint> containers = new ArrayList<>();
        List<HostSeries.NodePoint> nodes = new ArrayList<>();
        List<UsagePoint> card = new ArrayList<>();
        for (int m = -10; m < 20 && hostRead; m++) {
            Instant at = start.plus(Duration.ofMinutes(m));
            boolean recent = m >= -3;
            containers.add(new HostSeries.ContainerPoint("c1", namespace, "chat-0", "server", "n1", at, 60, 60, 30d,
                    600d, 600 * (recent ? throttled : 0.02), 1d, null, null, null, null));
            containers.add(new HostSeries.ContainerPoint("c1", namespace, "chat-0", "", "n1", at, 60, 60, 30d, null,
                    null, null, null, null, 3000d, 3000d));
            nodes.add(new HostSeries.NodePoint("c1", "n1", at, 60, 60, 64, 3000d, 10d, 3d, 60 * (recent ? io : 0.01),
                    300_000d, 300_000d));
            double cap = recent ? powerCap : 0;
            card.add(new UsagePoint("DEVICE", "", "CLOCKS_EVENT_SW_POWER_CAP", at, cap, cap));
        }
        return PressureCurves.of(List.of(new PressureCurves.Placement(namespace + "/chat-0", "c1", "n1",
                List.of("GPU-A"))), new PressureCurves.Read(new HostSeries(containers, nodes), null,
                Map.of("GPU-A", card), null));
    }

    String neighbourKey() {
        return "research/" + neighbourPod;
    }

    /** The neighbour as jitter evidence keeps it, with its DRAM_ACTIVE curve from 10:00 to 10:30. */
    JitterEvidence.Neighbour neighbour(Instant start, double before, double recent) {
        List<JitterEvidence.Point> points = new ArrayList<>();
        for (int m = -10; m < 20; m++) {
            Instant minute = start.plus(Duration.ofMinutes(m));
            double v = m >= -3 ? recent : before;
            points.add(new JitterEvidence.Point(minute, v, v));
        }
        return new JitterEvidence.Neighbour("research", neighbourPod, "PyTorchJob", "llama-ft", "beta", "training",
                neighbourSince, null, List.of("GPU-A"), "GPU-A",
                Map.of("DRAM_ACTIVE", new JitterEvidence.Curve(neighbourScope, points)));
    }

    /**
     * The spell as the decision reads it: suspects ranked from the neighbours' curves and the host's and the card's,
     * as attribution ranks them.
     */
    PerformanceDiagnosis.Spell spell(Long id, Instant start, Instant end, List<JitterEvidence.Neighbour> neighbours,
                                     PressureCurves.Found host) {
        List<SuspectRanking.Candidate> ranked = new ArrayList<>();
        for (JitterEvidence.Neighbour n : neighbours) {
            Map<String, List<SuspectRanking.MinuteValue>> activity = new TreeMap<>();
            n.curves().forEach((field, c) -> activity.put(field, c.points().stream()
                    .map(p -> new SuspectRanking.MinuteValue(p.minute(), p.mean())).toList()));
            ranked.add(SuspectRanking.Candidate.neighbour(n.namespace() + "/" + n.pod(), n.since(), activity));
        }
        ranked.addAll(PressureCurves.candidates(host.pressures()));
        JitterEvidence evidence = new JitterEvidence(start, start.minus(Duration.ofMinutes(10)), end.plus(Duration.ofMinutes(10)),
                pods(), neighbours, List.of(), List.of(), SuspectRanking.rank(start, ranked), List.of(),
                host.pressures(), host.unmeasured());
        Map<String, Set<String>> own = PerformanceCause.ownCurves(evidence);
        return new PerformanceDiagnosis.Spell(namespace + "/chat", id, start, end, evidence.suspects().stream()
                .map(s -> new PerformanceCause.Signal(s, own.getOrDefault(s.key(), Set.of()))).toList(),
                neighboursRead, Set.of(namespace + "/chat-0"), evidence.unmeasured());
    }

    List<JitterEvidence.PodGpus> pods() {
        return List.of(new JitterEvidence.PodGpus(namespace, "chat-0", List.of(new JitterEvidence.Gpu("GPU-A", "n1",
                "WHOLE", BigDecimal.ONE, Instant.parse("2026-12-14T08:00:00Z")))));
    }

    /** 10 requests a minute from a week and an hour before to the end, {@code requestsDuring} in the spells. */
    NavigableMap<Instant, Long> requests() {
        NavigableMap<Instant, Long> out = new TreeMap<>();
        Instant from = AT.minus(PerformanceDiagnosis.RECURRENCE).minus(BASELINE).truncatedTo(java.time.temporal.ChronoUnit.HOURS);
        for (Instant m = from; m.isBefore(END); m = m.plus(Duration.ofMinutes(1))) {
            out.put(m, requestsBefore);
        }
        for (Instant m = START; m.isBefore(END); m = m.plus(Duration.ofMinutes(1))) {
            out.put(m, requestsDuring);
        }
        for (Past p : history) {
            for (int i = 0; i < 10; i++) {
                out.put(p.start().plus(Duration.ofMinutes(i)), p.requestsDuring());
            }
        }
        return out;
    }

    PerformanceDiagnosis.Inputs inputs() {
        JitterEvidence.Neighbour neighbour = neighbour(START, dramBefore, dramRecent);
        PerformanceDiagnosis.Spell current = spell(42L, START, END, List.of(neighbour),
                host(START, throttledRecent, ioRecent, powerCapRecent));
        List<PerformanceDiagnosis.Spell> spells = new ArrayList<>();
        for (Past p : history) {
            spells.add(spell(p.id(), p.start(), p.start().plus(Duration.ofMinutes(10)),
                    List.of(neighbour(p.start(), 0.3, 0.3 + p.dramRise())), host(p.start(), 0.02, 0.01, 0)));
        }
        spells.add(current);
        Map<String, String> tenants = new LinkedHashMap<>();
        tenants.put(namespace + "/chat-0", "acme");
        tenants.put(neighbourKey(), "beta");
        tenants.putAll(extraTenants);
        Triage.Subject subject = new Triage.Subject(Triage.SubjectKind.SERVICE, "c1", namespace, "chat", null, "acme");
        return new PerformanceDiagnosis.Inputs(subject, AT, new TimeWindow(AT.minus(Duration.ofHours(1)), AT), BASELINE,
                List.of(new PerformanceDiagnosis.JitterSign(42, "chat-ttft", "TTFT", START, END, 5, 310.5,
                        new BigDecimal("200"))),
                List.of(new PerformanceDiagnosis.SloReading("chat-ttft", "TTFT", null, null, "OK", null)),
                current, new PerformanceDiagnosis.Neighbourhood("jitter event 42's evidence", pods(), List.of(neighbour),
                List.of()), requests(), null,
                List.of(new Change("drv-n1", Instant.parse("2026-12-14T09:00:00Z"), "c1", "n1", "DRIVER_VERSION",
                        "nvidia", "550.54.15", "560.35.03", "node labels", 1)),
                spells, others, tenants, List.of());
    }

    Triage triage() {
        return PerformanceDiagnosis.diagnose(inputs(), THRESHOLDS, COMMANDS);
    }
}
