package io.gpumeter.slo.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.domain.EngineGaugeLine;
import io.gpumeter.slo.domain.GaugeStat;
import io.gpumeter.slo.repository.EngineGaugeRepository;
import io.gpumeter.slo.repository.EngineGaugeRepository.PodMinuteGauges;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Takes in inference engines' cache gauges and answers their per-minute curves: a service's (all its pods merged:
 * the mean of every reading, the largest of them) and each pod's.
 */
@ApplicationScoped
public class EngineGaugeService {

    /** One gauge over a minute: readings, their mean and their largest; mean and max null without readings. */
    public record Stat(long samples, Double mean, Double max) {

        static Stat of(GaugeStat s) {
            return new Stat(s.samples(), s.mean(), s.maxOrNull());
        }
    }

    /** One minute of a curve; {@code pods} counts the pods with readings in it. */
    public record MinutePoint(Instant minute, int pods, Stat kvCacheUsage, Stat prefixCacheHitRate) {
    }

    public record PodCurve(String namespace, String pod, List<MinutePoint> minutes) {
    }

    /**
     * A service's curve over {@code [from, to)}, the minutes with readings only, and each pod's; the service of one
     * namespace (null when none reported it).
     */
    public record GaugeReport(String service, String namespace, Instant from, Instant to, List<MinutePoint> minutes,
                              List<PodCurve> pods) {
    }

    private final EngineGaugeRepository repository;
    private final ServiceNamespaces namespaces;
    private final EngineGaugeLines lines;
    private final SloConfig config;

    public EngineGaugeService(EngineGaugeRepository repository, ServiceNamespaces namespaces, ObjectMapper mapper,
                              SloConfig config) {
        this.repository = repository;
        this.namespaces = namespaces;
        this.lines = new EngineGaugeLines(mapper, config.latency().maxLines());
        this.config = config;
    }

    /**
     * Stores a body whole, or nothing; the same body sent again is recognised and not added twice.
     *
     * @throws ApiProblem 400 naming the first bad line and field, 413 for too many lines
     */
    public Uni<LatencyService.IngestResult> ingest(String body) {
        List<EngineGaugeLine> parsed = lines.parse(body);
        String digest = sha256(body);
        return repository.store(digest, parsed)
                .map(stored -> new LatencyService.IngestResult(parsed.size(), stored ? parsed.size() : 0, !stored,
                        digest));
    }

    /**
     * @param namespace the service's namespace; null for the only namespace that reported its gauges in the window
     * @throws ApiProblem 400 naming {@code to} for a window longer than the latency query maximum, or
     *                    {@code namespace} for a service several namespaces reported in the window
     */
    public Uni<GaugeReport> report(String service, String namespace, TimeWindow window) {
        if (window.duration().compareTo(config.latency().maxQueryWindow()) > 0) {
            throw ApiProblem.badRequest("to", "an engine-gauge window spans at most "
                    + config.latency().maxQueryWindow() + "; narrow from/to");
        }
        return namespaces.ofGauges(service, namespace, window, "namespace").chain(ns -> repository
                .podMinutes(service, ns, window).map(rows -> {
            Map<String, List<MinutePoint>> byPod = new TreeMap<>();
            for (PodMinuteGauges r : rows) {
                byPod.computeIfAbsent(r.namespace() + "/" + r.pod(), k -> new ArrayList<>()).add(new MinutePoint(
                        r.minute(), 1, Stat.of(r.kvCacheUsage()), Stat.of(r.prefixCacheHitRate())));
            }
            List<PodCurve> pods = new ArrayList<>();
            byPod.forEach((key, minutes) -> pods.add(new PodCurve(key.substring(0, key.indexOf('/')),
                    key.substring(key.indexOf('/') + 1), minutes)));
            return new GaugeReport(service, ns, window.start(), window.end(), new ArrayList<>(merged(rows).values()),
                    pods);
        }));
    }

    /**
     * The KV-cache usage of a service of one namespace in every minute of the window, all its pods merged; minutes
     * without readings have {@code samples} 0, so the curve shows its gaps.
     */
    public Uni<List<KvPoint>> kvCurve(String service, String namespace, TimeWindow window) {
        return repository.podMinutes(service, namespace, window).map(rows -> {
            Map<Instant, MinutePoint> merged = merged(rows);
            List<KvPoint> curve = new ArrayList<>();
            for (Instant m = window.start(); m.isBefore(window.end()); m = m.plus(Duration.ofMinutes(1))) {
                MinutePoint p = merged.get(m);
                Stat kv = p == null ? Stat.of(GaugeStat.NONE) : p.kvCacheUsage();
                curve.add(new KvPoint(m, kv.samples(), kv.mean(), kv.max()));
            }
            return curve;
        });
    }

    /** One minute of a service's KV-cache usage: readings of all pods, their mean and the largest. */
    public record KvPoint(Instant minute, long samples, Double mean, Double max) {
    }

    private static Map<Instant, MinutePoint> merged(List<PodMinuteGauges> rows) {
        Map<Instant, GaugeStat[]> byMinute = new TreeMap<>();
        Map<Instant, Integer> pods = new TreeMap<>();
        for (PodMinuteGauges r : rows) {
            GaugeStat[] s = byMinute.computeIfAbsent(r.minute(), m -> new GaugeStat[]{GaugeStat.NONE, GaugeStat.NONE});
            s[0] = s[0].plus(r.kvCacheUsage());
            s[1] = s[1].plus(r.prefixCacheHitRate());
            pods.merge(r.minute(), 1, Integer::sum);
        }
        Map<Instant, MinutePoint> out = new TreeMap<>();
        byMinute.forEach((m, s) -> out.put(m, new MinutePoint(m, pods.get(m), Stat.of(s[0]), Stat.of(s[1]))));
        return out;
    }

    private static String sha256(String body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(body.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
