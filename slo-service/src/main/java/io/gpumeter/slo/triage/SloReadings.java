package io.gpumeter.slo.triage;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.domain.AlertState;
import io.gpumeter.slo.domain.BurnAlert;
import io.gpumeter.slo.domain.BurnRates;
import io.gpumeter.slo.domain.MinuteEvents;
import io.gpumeter.slo.domain.PodMinute;
import io.gpumeter.slo.domain.Sli;
import io.gpumeter.slo.domain.SloDefinition;
import io.gpumeter.slo.domain.SloMinutes;
import io.gpumeter.slo.domain.SloStatus;
import io.gpumeter.slo.repository.LatencyRepository;
import io.gpumeter.slo.service.SloService;
import io.gpumeter.slo.triage.PerformanceDiagnosis.SloReading;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A service's SLOs over a triage's look-back, as their burn-rate alerts saw them: whether each burned, from when, and
 * the first bad minute of the first that did (where a spell without a jitter event starts).
 */
@ApplicationScoped
public class SloReadings {

    /** How often within the look-back each SLO's burn-rate alerts are evaluated (the shortest alert window). */
    static final Duration BURN_STEP = Duration.ofMinutes(5);

    private final SloService slos;
    private final LatencyRepository latency;

    public SloReadings(SloService slos, LatencyRepository latency) {
        this.slos = slos;
        this.latency = latency;
    }

    /** The service's SLOs over the look-back and the first bad minute of those that burned in it (null: none did). */
    record Readings(List<SloReading> readings, Instant firstBad, Sli sli) {
    }

    /**
     * Each service SLO of the service evaluated every {@link #BURN_STEP} across the look-back, from one read of the
     * pod-minutes per SLI (however many SLOs share it). A legacy SLO without a namespace is read in the one asked.
     */
    Uni<Readings> of(String service, String ns, TimeWindow look) {
        return slos.list().chain(all -> {
            List<SloDefinition> mine = all.stream().map(SloService.Stored::definition)
                    .filter(d -> !d.selector().byTenant() && service.equals(d.service())
                            && (ns.equals(d.namespace()) || d.namespace() == null))
                    .map(d -> d.namespace() == null ? d.with(d.selector().in(ns)) : d)
                    .toList();
            Map<Sli, List<SloDefinition>> bySli = new TreeMap<>();
            mine.forEach(d -> bySli.computeIfAbsent(d.sli(), s -> new ArrayList<>()).add(d));
            return Multi.createFrom().iterable(bySli.entrySet())
                    .onItem().transformToUniAndConcatenate(e -> {
                        Duration span = e.getValue().stream().map(SloDefinition::window).reduce(longestAlert(),
                                (a, b) -> a.compareTo(b) >= 0 ? a : b);
                        return latency.podMinutes(e.getKey(), service, ns, null,
                                        new TimeWindow(look.start().minus(span), look.end()))
                                .map(pods -> e.getValue().stream().map(d -> read(d, pods, look)).toList());
                    })
                    .collect().asList()
                    .map(lists -> {
                        List<Read> read = lists.stream().flatMap(List::stream)
                                .sorted(Comparator.comparing(r -> r.reading().name())).toList();
                        Read first = read.stream().filter(r -> r.firstBad() != null)
                                .min(Comparator.comparing(Read::firstBad)).orElse(null);
                        return new Readings(read.stream().map(Read::reading).toList(),
                                first == null ? null : first.firstBad(), first == null ? null : first.sli());
                    });
        });
    }

    private static Duration longestAlert() {
        return BurnAlert.WORKBOOK.stream().map(BurnAlert::longWindow).max(Comparator.naturalOrder()).orElseThrow();
    }

    /** One SLO read: firstBad is its first bad minute in the look-back when it burned there, else null. */
    private record Read(SloReading reading, Instant firstBad, Sli sli) {
    }

    private static Read read(SloDefinition d, List<PodMinute> pods, TimeWindow look) {
        List<MinuteEvents> minutes = SloMinutes.perMinute(d, pods);
        Instant firstFiring = null;
        String firing = null;
        SloStatus last = null;
        for (Instant t = look.start(); !t.isAfter(look.end()); t = t.plus(BURN_STEP)) {
            SloStatus s = BurnRates.evaluate(d.target(), d.window(), BurnAlert.WORKBOOK, minutes, t);
            last = s;
            if (firstFiring == null && s.alerts().stream().anyMatch(AlertState::firing)) {
                firstFiring = t;
                firing = s.alerts().stream().filter(AlertState::firing).map(SloReadings::alert)
                        .collect(Collectors.joining("; "));
            }
        }
        if (!look.end().equals(last == null ? null : last.window().end())) {
            last = BurnRates.evaluate(d.target(), d.window(), BurnAlert.WORKBOOK, minutes, look.end());
        }
        Instant firstBad = null;
        if (firstFiring != null) {
            firstBad = minutes.stream().filter(m -> look.contains(m.minute()) && m.good() < m.total())
                    .map(MinuteEvents::minute).findFirst().orElse(look.start());
        }
        return new Read(new SloReading(d.name(), d.sli().name(), firstFiring, firing, last.state().name(), null),
                firstBad, d.sli());
    }

    private static String alert(AlertState a) {
        return String.format(Locale.ROOT, "%sx over %s and %s (%s; burn rates %s and %s)",
                a.alert().factor().toPlainString(), human(a.alert().longWindow()), human(a.alert().shortWindow()),
                a.alert().severity().name().toLowerCase(Locale.ROOT), a.longWindow().burnRate().stripTrailingZeros()
                        .toPlainString(), a.shortWindow().burnRate().stripTrailingZeros().toPlainString());
    }

    private static String human(Duration d) {
        return d.toMinutes() % (24 * 60) == 0 ? d.toDays() + "d" : d.toMinutes() % 60 == 0 ? d.toHours() + "h"
                : d.toMinutes() + "m";
    }
}
