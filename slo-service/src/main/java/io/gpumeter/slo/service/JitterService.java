package io.gpumeter.slo.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Page;
import io.gpumeter.common.problem.Window;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.domain.JitterRuns;
import io.gpumeter.slo.domain.LatencyHistograms;
import io.gpumeter.slo.domain.LatencySummary;
import io.gpumeter.slo.repository.JitterEventRepository;
import io.gpumeter.slo.repository.JitterEventRepository.LatencySlo;
import io.gpumeter.slo.repository.JitterEventRepository.StoredEvent;
import io.gpumeter.slo.repository.LatencyRepository;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Jitter events: minutes whose merged p99 is strictly over k x a latency SLO's threshold, consecutive ones one
 * event, each stored with the evidence attribution gathers. Detecting a window again extends and refreshes the
 * events it touches and never adds a second one.
 */
@ApplicationScoped
public class JitterService {

    /** One event a detection stored: created, or an existing one extended or refreshed. */
    public record Detected(long id, String slo, String service, String namespace, Instant start, Instant end,
                           boolean created) {
    }

    /** An SLO a detection could not judge, and why. */
    public record Skipped(String slo, String field, String detail) {
    }

    /**
     * What a detection over {@code [from, to)} did; {@code skipped} names the legacy SLOs (service without namespace)
     * whose service several namespaces reported in the window, so that no namespace's minutes were merged.
     */
    public record Detection(Instant from, Instant to, BigDecimal factor, int slos, List<Detected> events,
                            List<Skipped> skipped) {
    }

    private final JitterEventRepository events;
    private final LatencyRepository latency;
    private final JitterAttribution attribution;
    private final EngineGaugeService gauges;
    private final ObjectMapper mapper;
    private final SloConfig config;

    public JitterService(JitterEventRepository events, LatencyRepository latency, JitterAttribution attribution,
                         EngineGaugeService gauges, ObjectMapper mapper, SloConfig config) {
        this.events = events;
        this.latency = latency;
        this.attribution = attribution;
        this.gauges = gauges;
        this.mapper = mapper;
        this.config = config;
    }

    /** Detects over the configured look-back ending at the last whole minute before {@code now}. */
    public Uni<Detection> detectRecent(Instant now) {
        Instant end = now.truncatedTo(ChronoUnit.MINUTES);
        return detect(new TimeWindow(end.minus(config.jitter().lookback()), end));
    }

    /**
     * Finds the bad-minute runs of every latency SLO in the minutes starting in the window and stores them.
     *
     * @throws ApiProblem 400 naming {@code to} for a window longer than the configured maximum
     */
    public Uni<Detection> detect(TimeWindow window) {
        if (window.duration().compareTo(config.jitter().maxDetectionWindow()) > 0) {
            throw ApiProblem.badRequest("to", "a detection spans at most " + config.jitter().maxDetectionWindow()
                    + "; narrow from/to");
        }
        BigDecimal k = config.jitter().factor();
        List<Skipped> skipped = new ArrayList<>();
        return events.latencySlos().chain(slos -> Multi.createFrom().iterable(slos)
                // a skipped SLO's null item ends its Uni without an item, so it drops out here
                .onItem().transformToUniAndConcatenate(slo -> pinned(slo, window, skipped))
                .onItem().transformToMultiAndConcatenate(slo -> runs(slo, window, k)
                        .onItem().transformToMulti(runs -> Multi.createFrom().iterable(runs))
                        .onItem().transformToUniAndConcatenate(run -> store(slo, run, k)))
                .collect().asList()
                .map(found -> new Detection(window.start(), window.end(), k, slos.size(), found,
                        List.copyOf(skipped))));
    }

    /**
     * The SLO over its service's own namespace: a legacy SLO (no namespace) takes the only namespace that reported its
     * service in the window; null (skipped) when none did, or when several did (recorded in {@code skipped}).
     */
    private Uni<LatencySlo> pinned(LatencySlo slo, TimeWindow window, List<Skipped> skipped) {
        if (slo.namespace() != null) {
            return Uni.createFrom().item(slo);
        }
        return latency.namespacesOf(slo.service(), window).map(found -> {
            if (found.size() > 1) {
                ApiProblem p = ServiceNamespaces.ambiguous("selector.namespace", "SLO '" + slo.name()
                        + "' selects service '" + slo.service() + "' without a namespace; its name", found,
                        " in the minutes detected");
                skipped.add(new Skipped(slo.name(), p.field(), p.getMessage()));
                return null;
            }
            return found.isEmpty() ? null : slo.in(found.get(0));
        });
    }

    private Uni<List<JitterRuns.Run>> runs(LatencySlo slo, TimeWindow window, BigDecimal k) {
        double limit = slo.thresholdMs().multiply(k).doubleValue();
        return perMinute(slo, window).map(minutes -> {
            TreeMap<Instant, Double> p99 = new TreeMap<>();
            minutes.forEach((minute, h) -> p99.put(minute, LatencyHistograms.percentileMs(h, 99)));
            return JitterRuns.find(p99, limit);
        });
    }

    private Uni<TreeMap<Instant, Histogram>> perMinute(LatencySlo slo, TimeWindow window) {
        return latency.histograms(slo.service(), slo.namespace(), slo.sli(), window).map(rows -> {
            TreeMap<Instant, Histogram> byMinute = new TreeMap<>();
            for (LatencyRepository.StoredHistogram h : rows) {
                LatencyHistograms.mergeInto(byMinute.computeIfAbsent(h.minute(), m -> LatencyHistograms.empty()),
                        h.histogram());
            }
            return byMinute;
        });
    }

    /** Stores a run, joined with the stored events it touches, with fresh evidence over the joined span. */
    private Uni<Detected> store(LatencySlo slo, JitterRuns.Run run, BigDecimal k) {
        return events.touching(slo.name(), run.start(), run.end()).chain(touching -> {
            Instant start = run.start();
            Instant end = run.end();
            for (StoredEvent e : touching) {
                start = e.start().isBefore(start) ? e.start() : start;
                end = e.end().isAfter(end) ? e.end() : end;
            }
            TimeWindow span = new TimeWindow(start, end);
            TimeWindow curve = new TimeWindow(start.minus(config.jitter().curveMargin()),
                    end.plus(config.jitter().curveMargin()));
            double limit = slo.thresholdMs().multiply(k).doubleValue();
            return perMinute(slo, curve).chain(minutes -> latency.podRequests(slo.service(), slo.namespace(), curve).chain(requests -> {
                List<JitterEvidence.LatencyPoint> points = new ArrayList<>();
                int bad = 0;
                double peak = 0;
                // every minute of the span, those without requests as count 0, so the curve shows the gaps
                for (Instant m = curve.start(); m.isBefore(curve.end()); m = m.plus(Duration.ofMinutes(1))) {
                    Histogram h = minutes.get(m);
                    LatencySummary s = h == null ? LatencySummary.EMPTY : LatencyHistograms.summary(h);
                    points.add(new JitterEvidence.LatencyPoint(m, s.count(), s.p50Ms(), s.p95Ms(), s.p99Ms()));
                    if (span.contains(m) && s.p99Ms() != null && s.p99Ms() > limit) {
                        bad++;
                        peak = Math.max(peak, s.p99Ms());
                    }
                }
                Set<String> servicePods = new TreeSet<>();
                Set<String> eventPods = new TreeSet<>();
                for (LatencyRepository.PodRequests r : requests) {
                    String key = r.namespace() + "/" + r.pod();
                    servicePods.add(key);
                    if (span.contains(r.minute())) {
                        eventPods.add(key);
                    }
                }
                int badMinutes = Math.max(bad, run.badMinutes());
                double peakP99 = Math.max(peak, run.peakP99Ms());
                return gauges.kvCurve(slo.service(), slo.namespace(), curve)
                        .chain(kv -> attribution.gather(span.start(), eventPods, servicePods, curve, points, kv))
                        .chain(evidence -> events.save(new JitterEventRepository.NewEvent(slo, span.start(), span.end(),
                                badMinutes, peakP99, k, json(evidence))))
                        .map(saved -> new Detected(saved.id(), slo.name(), slo.service(), slo.namespace(),
                                span.start(), span.end(), saved.created()));
            }));
        });
    }

    private String json(JitterEvidence evidence) {
        try {
            return mapper.writeValueAsString(evidence);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("jitter evidence is plain records and always serializable", e);
        }
    }

    /**
     * The page of the events overlapping the window, of one service or (null) all, of one namespace or (null) any.
     * A service named without its namespace is the only namespace's whose events of that service overlap the window
     * (events stored before services belonged to a namespace, whose namespace is not known, are listed only then).
     *
     * @throws ApiProblem 400 naming {@code namespace} when the events of several namespaces' services of that name
     *                    overlap the window, or the namespace is malformed
     */
    public Uni<Page<StoredEvent>> list(TimeWindow window, String service, String namespace, Window page) {
        String named = ServiceNamespaces.parameter("namespace", namespace);
        if (service == null || named != null) {
            return events.list(window, service, named, page);
        }
        return events.namespacesOf(service, window).chain(found -> {
            if (found.size() > 1) {
                throw ServiceNamespaces.ambiguous("namespace", "service '" + service + "'", found,
                        " in jitter events between " + window.start() + " and " + window.end());
            }
            return events.list(window, service, found.isEmpty() ? null : found.get(0), page);
        });
    }

    /** One event and its evidence, or null. */
    public Uni<Event> get(long id) {
        return events.byId(id).map(e -> {
            if (e == null) {
                return null;
            }
            try {
                return new Event(e, mapper.readValue(e.evidence(), JitterEvidence.class));
            } catch (JsonProcessingException ex) {
                throw new IllegalStateException("stored jitter evidence of event " + id + " is unreadable", ex);
            }
        });
    }

    /** A stored event with its evidence read back. */
    public record Event(StoredEvent event, JitterEvidence evidence) {
    }
}
