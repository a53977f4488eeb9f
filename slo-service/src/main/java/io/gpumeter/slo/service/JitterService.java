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
    public record Detected(long id, String slo, String service, Instant start, Instant end, boolean created) {
    }

    /** What a detection over {@code [from, to)} did. */
    public record Detection(Instant from, Instant to, BigDecimal factor, int slos, List<Detected> events) {
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
        return events.latencySlos(null).chain(slos -> Multi.createFrom().iterable(slos)
                .onItem().transformToMultiAndConcatenate(slo -> runs(slo, window, k)
                        .onItem().transformToMulti(runs -> Multi.createFrom().iterable(runs))
                        .onItem().transformToUniAndConcatenate(run -> store(slo, run, k)))
                .collect().asList()
                .map(found -> new Detection(window.start(), window.end(), k, slos.size(), found)));
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
        return latency.histograms(slo.service(), slo.sli(), window).map(rows -> {
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
            return perMinute(slo, curve).chain(minutes -> latency.podRequests(slo.service(), curve).chain(requests -> {
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
                return gauges.kvCurve(slo.service(), curve)
                        .chain(kv -> attribution.gather(span.start(), eventPods, servicePods, curve, points, kv))
                        .chain(evidence -> events.save(new JitterEventRepository.NewEvent(slo, span.start(), span.end(),
                                badMinutes, peakP99, k, json(evidence))))
                        .map(saved -> new Detected(saved.id(), slo.name(), slo.service(), span.start(), span.end(),
                                saved.created()));
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

    /** The page of the events overlapping the window, of one service or (null) all. */
    public Uni<Page<StoredEvent>> list(TimeWindow window, String service, Window page) {
        return events.list(window, service, page);
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
