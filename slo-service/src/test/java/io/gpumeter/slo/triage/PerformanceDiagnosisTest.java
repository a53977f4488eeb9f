package io.gpumeter.slo.triage;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.shell.ShellWords;
import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A slow service's cause from the facts slo-service holds, one fixture per cause ({@link ServiceFixture}). */
class PerformanceDiagnosisTest {

    private static Triage.Alternative alternative(Triage t, String cause) {
        return t.alternatives().stream().filter(a -> a.cause().equals(cause)).findFirst().orElseThrow();
    }

    private static Triage.Evidence evidence(Triage t, String source) {
        return t.evidence().stream().filter(e -> e.source().equals(source)).findFirst().orElseThrow();
    }

    @Test
    void aNeighbourWhoseOwnActivityRoseWhileTheLoadDidNotIsInterference() {
        Triage t = new ServiceFixture().neighbourRises().triage();
        assertEquals(Symptom.PERFORMANCE, t.symptom());
        assertEquals("neighbour-interference", t.cause());
        assertEquals("data-plane", t.layer());
        assertEquals(Confidence.HIGH, t.confidence());
        Triage.Evidence usage = evidence(t, "usage");
        assertTrue(usage.fact().startsWith("neighbour research/train-0 (namespace research, training, PyTorchJob llama-ft)"
                + " on GPU-A of node n1: its own DRAM_ACTIVE rose from 0.300 to 0.800"), usage.fact());
        assertEquals("promtool query range --start=2026-12-14T10:00:00Z --end=2026-12-14T10:20:00Z --step=1m"
                + " \"$PROMETHEUS_URL\" 'DCGM_FI_PROF_DRAM_ACTIVE{UUID=\"GPU-A\",namespace=\"research\",pod=\"train-0\"}'",
                usage.command());
        assertEquals("its request rate did not rise: 10 a minute against 10 before (x1, under x1.5)",
                alternative(t, "own-load").ruledOutBy());
        assertTrue(t.named().contains(new Triage.Named(Triage.SubjectKind.POD, "research", "train-0", "beta")));
        assertTrue(t.named().contains(new Triage.Named(Triage.SubjectKind.WORKLOAD, "research", "llama-ft", "beta")));
        assertTrue(t.named().contains(new Triage.Named(null, "research", null, "beta")));
        assertNull(t.fix(), "the runbook's fix is alert-service's to add");
    }

    @Test
    void aRequestRateThatRoseWhileNoNeighbourChangedIsItsOwnLoad() {
        Triage t = new ServiceFixture().loadRises().triage();
        assertEquals("own-load", t.cause());
        assertEquals("workload", t.layer());
        assertEquals(Confidence.HIGH, t.confidence());
        Triage.Evidence rate = evidence(t, "latency");
        assertEquals("requests of ml/chat: 30 a minute from 2026-12-14T10:10:00Z to 2026-12-14T10:20:00Z against 10 a"
                + " minute from 2026-12-14T09:10:00Z to 2026-12-14T10:10:00Z (x3)", rate.fact());
        assertEquals("promtool query range --start=2026-12-14T09:10:00Z --end=2026-12-14T10:20:00Z --step=1m"
                + " \"$PROMETHEUS_URL\" 'sum(increase(vllm:e2e_request_latency_seconds_count{namespace=\"ml\","
                + "service=\"chat\"}[1m]))'", rate.command());
        assertEquals("no neighbour on its cards arrived in the 10 min before 2026-12-14T10:10:00Z or rose by 0.1:"
                + " research/train-0 (present 70.0 min before, its own DRAM_ACTIVE +0.000)",
                alternative(t, "neighbour-interference").ruledOutBy());
        assertTrue(t.evidence().stream().noneMatch(e -> e.source().equals("usage")), "no neighbour decided it");
    }

    @Test
    void interferenceAndOwnLoadDifferOnlyInTheDecidingFactAndTriageApart() {
        ServiceFixture interference = new ServiceFixture().neighbourRises();
        ServiceFixture load = new ServiceFixture().loadRises();
        // the one fact each changes, against the same service, spell, neighbour and changes
        assertEquals(new ServiceFixture().requests(), interference.requests());
        assertEquals(new ServiceFixture().inputs().spell().signals().get(0).suspect().key(),
                load.inputs().spell().signals().get(0).suspect().key());
        assertEquals(new ServiceFixture().inputs().neighbourhood(), load.inputs().neighbourhood());
        Triage i = interference.triage();
        Triage l = load.triage();
        assertEquals("neighbour-interference", i.cause());
        assertEquals("own-load", l.cause());
        assertEquals(i.changes(), l.changes());
        assertEquals(List.of("drv-n1"), i.changes().stream().map(Triage.ChangeRef::id).toList());
        assertEquals("560.35.03", i.changes().get(0).to());
    }

    @Test
    void neitherIsUnexplainedAndSaysWhatItCouldNotRuleOut() {
        Triage t = new ServiceFixture().triage();
        assertEquals("unexplained", t.cause());
        assertEquals(Confidence.LOW, t.confidence());
        assertNotNull(alternative(t, "neighbour-interference").ruledOutBy());
        assertNotNull(alternative(t, "own-load").ruledOutBy());
        // the host and the card were measured and stayed flat: each of their causes is ruled out by its numbers
        assertEquals("its pods' CPU throttling and its nodes' CPU pressure did not rise by 0.1 in the 3 min before"
                        + " 2026-12-14T10:10:00Z: the CFS throttling of its pod ml/chat-0 CFS_THROTTLED_RATIO 0.020 to 0.020"
                        + " (+0.000); the CPU pressure of node n1 CPU_PRESSURE 0.050 to 0.050 (+0.000)",
                alternative(t, "cpu-saturated").ruledOutBy());
        assertNotNull(alternative(t, "io-wait").ruledOutBy());
        assertNotNull(alternative(t, "network").ruledOutBy());
        assertTrue(alternative(t, "power-or-thermal").ruledOutBy().startsWith("its cards' power and thermal slowdowns"
                + " did not rise"), alternative(t, "power-or-thermal").ruledOutBy());
        assertTrue(t.checked().contains("host and card around the spell: the power and thermal slowdowns of card GPU-A,"
                + " the CFS throttling of its pod ml/chat-0, its pod ml/chat-0's share of its node's network, the CPU"
                + " pressure of node n1, the I/O pressure of node n1 measured"), t.checked().toString());
        Triage.Evidence jitter = evidence(t, "jitter");
        assertEquals("jitter event 42 of SLO chat-ttft: TTFT p99 over 200 ms for 5 minutes from 2026-12-14T10:10:00Z to"
                + " 2026-12-14T10:20:00Z, at most 310.5 ms", jitter.fact());
        assertEquals("curl -sS -H 'Authorization: Bearer '\"$GPUMETER_TOKEN\" \"$GPUMETER_SLO\"'/api/v1/jitter-events/42'",
                jitter.command());
    }

    @Test
    void aRiseOnTheWholeCardsCurveIsNotTheNeighbours() {
        // the card's DRAM_ACTIVE counts the service's own work too: it names no neighbour
        ServiceFixture f = new ServiceFixture().neighbourRises();
        f.neighbourScope = "DEVICE";
        Triage t = f.triage();
        assertEquals("unexplained", t.cause());
        assertTrue(alternative(t, "neighbour-interference").ruledOutBy().contains("only the card's curves"));
    }

    @Test
    void aNewcomerWhoseActivityCannotBeToldApartArrivingJustBeforeIsInterferenceWithLessCertainty() {
        ServiceFixture f = new ServiceFixture();
        f.neighbourScope = "DEVICE";
        f.neighbourSince = ServiceFixture.START.minus(Duration.ofMinutes(2));
        Triage t = f.triage();
        assertEquals("neighbour-interference", t.cause());
        assertEquals(Confidence.MEDIUM, t.confidence());
        Triage.Evidence ledger = t.evidence().stream().filter(e -> e.fact().startsWith("neighbour ")).findFirst()
                .orElseThrow();
        assertTrue(ledger.fact().contains("arrived 2.0 min before the spell, its activity not told apart from the card's"),
                ledger.fact());
        assertEquals("kubectl get pod -n 'research' 'train-0' -o wide", ledger.command());
    }

    @Test
    void withoutRequestsBeforeOwnLoadIsNotRuledOut() {
        ServiceFixture f = new ServiceFixture().neighbourRises();
        f.requestsBefore = 0;
        Triage t = f.triage();
        assertEquals("neighbour-interference", t.cause());
        assertEquals(Confidence.MEDIUM, t.confidence(), "own load could not be compared");
        assertNull(alternative(t, "own-load").ruledOutBy());
        assertTrue(t.checked().stream().anyMatch(c -> c.startsWith("own load could not be ruled out: no requests from")));
    }

    @Test
    void neighboursNotReadLeaveInterferenceOpen() {
        ServiceFixture f = new ServiceFixture().loadRises();
        f.neighboursRead = false;
        Triage t = f.triage();
        assertEquals("own-load", t.cause());
        assertEquals(Confidence.MEDIUM, t.confidence());
        assertNull(alternative(t, "neighbour-interference").ruledOutBy());
    }

    @Test
    void theSameCauseInTheWeekBeforeRecursAndAnotherCauseOrAnOlderSpellDoesNot() {
        ServiceFixture f = new ServiceFixture().neighbourRises();
        Instant threeDays = ServiceFixture.START.minus(Duration.ofDays(3));
        f.history.add(new ServiceFixture.Past(7, threeDays, 0.5, 10));                                       // same
        f.history.add(new ServiceFixture.Past(8, ServiceFixture.START.minus(Duration.ofDays(2)), 0, 40));    // own load
        f.history.add(new ServiceFixture.Past(3, ServiceFixture.START.minus(Duration.ofDays(8)), 0.5, 10));  // too old
        Triage t = f.triage();
        assertEquals(new Triage.Recurrence(2, threeDays), t.recurrence());
        Triage own = new ServiceFixture().loadRises().triage();
        assertEquals(new Triage.Recurrence(1, ServiceFixture.START), own.recurrence(), "this one alone");
    }

    @Test
    void anotherServiceOnTheCardsWithTheSameCauseWidensTheScopeAndOneOfUnknownTenantIsCountedNotNamed() {
        ServiceFixture f = new ServiceFixture().neighbourRises();
        Triage alone = f.triage();
        assertEquals(new Triage.Scope("POD", List.of(), 0), alone.scope());

        ServiceFixture other = new ServiceFixture().neighbourRises();
        other.namespace = "shop";
        var spell = other.inputs().spell();
        f.others.add(new PerformanceDiagnosis.Other(spell, other.requests(), Set.of("shop/chat-0")));
        f.extraTenants.put("shop/chat-0", "gamma");
        Triage wide = f.triage();
        assertEquals(new Triage.Scope("NODE", List.of("shop/chat-0"), 0), wide.scope());
        assertTrue(wide.named().contains(new Triage.Named(Triage.SubjectKind.POD, "shop", "chat-0", "gamma")));

        ServiceFixture unknown = new ServiceFixture().neighbourRises();
        unknown.others.add(new PerformanceDiagnosis.Other(spell, other.requests(), Set.of("shop/chat-0")));
        Triage counted = unknown.triage();
        assertEquals(new Triage.Scope("NODE", List.of(), 1), counted.scope());
        assertTrue(counted.named().stream().noneMatch(n -> "shop".equals(n.namespace())));

        // an other service slowed by its own load is not alike
        ServiceFixture busy = new ServiceFixture().loadRises();
        busy.namespace = "shop";
        ServiceFixture g = new ServiceFixture().neighbourRises();
        g.others.add(new PerformanceDiagnosis.Other(busy.inputs().spell(), busy.requests(), Set.of("shop/chat-0")));
        g.extraTenants.put("shop/chat-0", "gamma");
        assertEquals(new Triage.Scope("POD", List.of(), 0), g.triage().scope());
    }

    @Test
    void everyCommandIsOneQuotedCommandWhateverTheNames() {
        ServiceFixture f = new ServiceFixture().neighbourRises();
        f.neighbourPod = "x'; rm -rf / #$(id)\"}";
        f.namespace = "ml";
        Triage t = f.triage();
        assertEquals("neighbour-interference", t.cause());
        for (Triage.Evidence e : t.evidence()) {
            assertTrue(ShellWords.onlyQuoted(e.command()), e.command());
        }
        // the PromQL string is escaped too: the name's quote and brace end no matcher
        assertTrue(evidence(t, "usage").command().contains("#$(id)\\\"}\"}'"), evidence(t, "usage").command());
    }

    @Test
    void aServiceThatWasNotSlowAnswersNoneWithWhatWasChecked() {
        Triage.Subject s = new Triage.Subject(Triage.SubjectKind.SERVICE, "c1", "ml", "chat", null, "acme");
        TimeWindow look = new TimeWindow(ServiceFixture.AT.minus(Duration.ofHours(1)), ServiceFixture.AT);
        Triage t = PerformanceDiagnosis.healthy(s, ServiceFixture.AT, look, List.of(
                new PerformanceDiagnosis.SloReading("chat-ttft", "TTFT", null, null, "OK", null)), List.of());
        assertEquals(Symptom.NONE, t.symptom());
        assertNull(t.cause());
        assertEquals(List.of("jitter events of ml/chat overlapping 2026-12-14T09:15:00Z to 2026-12-14T10:15:00Z: none",
                "SLO chat-ttft (TTFT): not burning from 2026-12-14T09:15:00Z to 2026-12-14T10:15:00Z (OK at"
                        + " 2026-12-14T10:15:00Z)"), t.checked());
        assertEquals(List.of(new Triage.Named(Triage.SubjectKind.SERVICE, "ml", "chat", "acme"),
                new Triage.Named(null, "ml", null, "acme")), t.named());
    }

    @Test
    void aRateIsPerMinuteOfTheWholeSpanAndNeedsABaseline() {
        TreeMap<Instant, Long> minutes = new TreeMap<>();
        Instant s = ServiceFixture.START;
        minutes.put(s.minus(Duration.ofMinutes(30)), 60L);   // one busy minute in the hour before: 1 a minute
        minutes.put(s, 20L);
        minutes.put(s.plus(Duration.ofMinutes(1)), 20L);     // 40 over 4 minutes: 10 a minute
        RequestRate r = RequestRate.of(minutes, s, s.plus(Duration.ofMinutes(4)), Duration.ofHours(1));
        assertEquals(1.0, r.baselinePerMinute());
        assertEquals(10.0, r.spellPerMinute());
        assertEquals(10.0, r.ratio());
        assertTrue(r.rose(1.5));
        RequestRate none = RequestRate.of(new TreeMap<>(minutes.tailMap(s)), s, s.plus(Duration.ofMinutes(4)),
                Duration.ofHours(1));
        assertNull(none.ratio());
        assertTrue(!none.rose(1.5));
    }

    @Test
    void aCpuThrottledServiceTriagesToCpuSaturatedWithItsOwnCpuTheTopSuspect() {
        ServiceFixture f = new ServiceFixture().cpuThrottles();
        PerformanceDiagnosis.Spell spell = f.inputs().spell();
        assertEquals("cpu-throttling:ml/chat-0", spell.signals().get(0).suspect().key(), "its jitter event's top suspect");
        assertEquals(1, spell.signals().get(0).suspect().rank());
        Triage t = f.triage();
        assertEquals("cpu-saturated", t.cause());
        assertEquals("workload", t.layer());
        assertEquals(Confidence.HIGH, t.confidence());
        Triage.Evidence host = evidence(t, "host");
        assertEquals("the CFS throttling of its pod ml/chat-0: CFS_THROTTLED_RATIO rose from 0.020 to 0.600 in the 3 min"
                + " before the spell (+0.580); suspect 1 of 6 (score 0.580)", host.fact());
        assertEquals("promtool query range --start=2026-12-14T10:00:00Z --end=2026-12-14T10:20:00Z --step=1m"
                + " \"$PROMETHEUS_URL\" 'sum(rate(container_cpu_cfs_throttled_periods_total{namespace=\"ml\","
                + "pod=\"chat-0\",container!=\"\"}[1m])) / sum(rate(container_cpu_cfs_periods_total{namespace=\"ml\","
                + "pod=\"chat-0\",container!=\"\"}[1m]))'", host.command());
        assertTrue(ShellWords.onlyQuoted(host.command()));
        assertTrue(alternative(t, "neighbour-interference").ruledOutBy().startsWith("no neighbour on its cards arrived"));
        assertNotNull(alternative(t, "own-load").ruledOutBy());
        assertNotNull(alternative(t, "io-wait").ruledOutBy());
        assertTrue(t.alternatives().stream().noneMatch(a -> a.cause().equals("cpu-saturated")));
    }

    @Test
    void aPowerCappedCardTriagesToPowerOrThermal() {
        Triage t = new ServiceFixture().powerCapped().triage();
        assertEquals("power-or-thermal", t.cause());
        assertEquals("data-plane", t.layer());
        assertEquals(Confidence.HIGH, t.confidence());
        Triage.Evidence card = evidence(t, "usage");
        assertTrue(card.fact().startsWith("the power and thermal slowdowns of card GPU-A: CLOCKS_EVENT_SW_POWER_CAP rose"
                + " from 0.000 to 1.000"), card.fact());
        assertEquals("curl -sS -H 'Authorization: Bearer '\"$GPUMETER_TOKEN\" \"$GPUMETER_LEDGER\"'/api/v1/gpus/GPU-A/"
                + "throttling?from=2026-12-14T10%3A00%3A00Z&to=2026-12-14T10%3A20%3A00Z'", card.command());
        assertNotNull(alternative(t, "cpu-saturated").ruledOutBy());
    }

    @Test
    void aNodeUnderIoPressureTriagesToIoWait() {
        Triage t = new ServiceFixture().ioStalls().triage();
        assertEquals("io-wait", t.cause());
        Triage.Evidence host = evidence(t, "host");
        assertTrue(host.fact().startsWith("the I/O pressure of node n1: IO_PRESSURE rose from 0.010 to 0.500"), host.fact());
        assertTrue(host.command().endsWith("'rate(node_pressure_io_stalled_seconds_total{instance=~\"n1(:[0-9]+)?\"}[1m])'"),
                host.command());
        assertNotNull(alternative(t, "cpu-saturated").ruledOutBy());
        assertNotNull(alternative(t, "neighbour-interference").ruledOutBy());
    }

    @Test
    void interferenceAndCpuSaturationDifferOnlyInTheDecidingEvidence() {
        ServiceFixture neighbour = new ServiceFixture().neighbourRises();
        ServiceFixture cpu = new ServiceFixture().cpuThrottles();
        // the same service, load, neighbourhood and changes; only the curve that rose differs
        assertEquals(neighbour.requests(), cpu.requests());
        assertEquals(neighbour.inputs().neighbourhood().pods(), cpu.inputs().neighbourhood().pods());
        Triage n = neighbour.triage();
        Triage c = cpu.triage();
        assertEquals("neighbour-interference", n.cause());
        assertEquals("cpu-saturated", c.cause());
        assertEquals(Confidence.HIGH, n.confidence());
        assertEquals(Confidence.HIGH, c.confidence());
        assertEquals(n.changes(), c.changes());
        assertEquals(n.evidence().stream().filter(e -> !e.source().equals("usage")).toList(),
                c.evidence().stream().filter(e -> !e.source().equals("host")).toList(),
                "everything but the deciding fact is the same");
        assertNotNull(alternative(n, "cpu-saturated").ruledOutBy());
        assertNotNull(alternative(c, "neighbour-interference").ruledOutBy());

        // both rose: the host is ruled out before neighbours are blamed, and the neighbour is named, not ruled out
        Triage both = new ServiceFixture().neighbourRises().cpuThrottles().triage();
        assertEquals("cpu-saturated", both.cause());
        assertEquals(Confidence.MEDIUM, both.confidence());
        assertNull(alternative(both, "neighbour-interference").ruledOutBy());
        assertTrue(both.checked().contains("not ruled out: neighbour-interference, neighbour research/train-0's own"
                + " DRAM_ACTIVE rose too (+0.500)"), both.checked().toString());
    }

    @Test
    void withoutHostDataUnexplainedSaysWhatIsMissing() {
        ServiceFixture f = new ServiceFixture();
        f.hostRead = false;
        Triage t = f.triage();
        assertEquals("unexplained", t.cause());
        assertEquals(Confidence.LOW, t.confidence());
        for (String cause : List.of("cpu-saturated", "io-wait", "network", "power-or-thermal")) {
            assertNull(alternative(t, cause).ruledOutBy(), cause + " cannot be ruled out unmeasured");
        }
        List<String> checked = t.checked();
        assertTrue(checked.contains("host and card around the spell: nothing measured"), checked.toString());
        assertTrue(checked.contains("could not rule out cpu-saturated: no CFS periods of pod ml/chat-0 in the ledger's host"
                + " series (the kubelet's cAdvisor container_cpu_cfs_periods_total and"
                + " container_cpu_cfs_throttled_periods_total)"), checked.toString());
        assertTrue(checked.stream().anyMatch(c -> c.startsWith("could not rule out io-wait: no I/O pressure stall of node n1")),
                checked.toString());
        assertTrue(checked.stream().anyMatch(c -> c.startsWith("could not rule out network: no network bytes of pod ml/chat-0")),
                checked.toString());
        assertTrue(checked.stream().anyMatch(c -> c.startsWith("could not rule out power-or-thermal: no clocks-event reasons"
                + " of power or heat and no power or thermal violation counters of card GPU-A")), checked.toString());
    }

    @Test
    void aSpellAttributedBeforeTheHostWasReadSaysItWasNotRead() {
        ServiceFixture f = new ServiceFixture();
        PerformanceDiagnosis.Inputs in = f.inputs();
        PerformanceDiagnosis.Spell s = in.spell();
        PerformanceDiagnosis.Spell old = new PerformanceDiagnosis.Spell(s.service(), s.eventId(), s.start(), s.end(),
                s.signals().stream().filter(PerformanceCause.Signal::neighbour).toList(), s.neighboursRead(), s.pods(), null);
        Triage t = PerformanceDiagnosis.diagnose(new PerformanceDiagnosis.Inputs(in.subject(), in.at(), in.lookBack(),
                in.baseline(), in.jitter(), in.slos(), old, in.neighbourhood(), in.requests(), in.interference(),
                in.changes(), in.history(), in.others(), in.podTenants(), in.notes()), ServiceFixture.THRESHOLDS,
                ServiceFixture.COMMANDS);
        assertEquals("unexplained", t.cause());
        assertTrue(t.checked().contains("could not rule out: the host's CPU throttling, I/O wait, network and power or"
                + " thermal limits (not read when the spell's evidence was gathered)"), t.checked().toString());
        assertNull(alternative(t, "cpu-saturated").ruledOutBy());
    }
}
