package io.gpumeter.slo.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.domain.LatencyBatch;
import io.gpumeter.slo.domain.LatencyHistograms;
import io.gpumeter.slo.domain.LatencyRecord;
import io.gpumeter.slo.domain.LatencySummary;
import io.gpumeter.slo.domain.Sli;
import io.gpumeter.slo.repository.LatencyRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.HdrHistogram.Histogram;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Takes in request latency records and answers percentiles of any window by merging stored minutes. */
@ApplicationScoped
public class LatencyService {

    /** What an ingest did: records read, and whether they were stored or were a body already stored. */
    public record IngestResult(int records, int stored, boolean duplicate, String digest) {
    }

    /** One minute of the curve. */
    public record MinutePoint(Instant minute, LatencySummary latency) {
    }

    /** A window's percentiles and its per-minute curve, of a service in its namespace (null when none reported it). */
    public record LatencyReport(String service, String namespace, Sli sli, Instant from, Instant to, long count,
                                Double p50Ms, Double p95Ms, Double p99Ms, Double maxMs, String precision,
                                List<MinutePoint> minutes) {
    }

    private final LatencyRepository repository;
    private final ServiceNamespaces namespaces;
    private final LatencyLines lines;
    private final SloConfig config;

    public LatencyService(LatencyRepository repository, ServiceNamespaces namespaces, ObjectMapper mapper,
                          SloConfig config) {
        this.repository = repository;
        this.namespaces = namespaces;
        this.lines = new LatencyLines(mapper, config.latency().maxLines());
        this.config = config;
    }

    /**
     * Stores a body of NDJSON records whole, or nothing; the same body sent again is recognised and not added twice.
     *
     * @throws ApiProblem 400 naming the first bad line, 413 for too many records
     */
    public Uni<IngestResult> ingest(String body) {
        List<LatencyRecord> records = lines.parse(body);
        String digest = sha256(body);
        return repository.store(digest, records.size(), LatencyBatch.of(records))
                .map(stored -> new IngestResult(records.size(), stored ? records.size() : 0, !stored, digest));
    }

    /**
     * The service's percentiles over the minutes that start in {@code [from, to)}, all its pods merged.
     *
     * @param namespace the service's namespace; null for the only namespace that reported the service in the window
     * @throws ApiProblem 400 for AVAILABILITY, a window longer than the configured maximum, or (naming
     *                    {@code namespace}) a service several namespaces reported in the window
     */
    public Uni<LatencyReport> report(String service, String namespace, Sli sli, TimeWindow window) {
        if (!sli.isLatency()) {
            throw ApiProblem.badRequest("sli", "sli must be TTFT, ITL or E2E for latency, got " + sli);
        }
        if (window.duration().compareTo(config.latency().maxQueryWindow()) > 0) {
            throw ApiProblem.badRequest("to", "a latency window spans at most " + config.latency().maxQueryWindow()
                    + "; narrow from/to");
        }
        return namespaces.ofRequests(service, namespace, window, "namespace").chain(ns -> repository
                .histograms(service, ns, sli, window).map(stored -> {
            Histogram total = LatencyHistograms.empty();
            Map<Instant, Histogram> byMinute = new TreeMap<>();
            for (LatencyRepository.StoredHistogram h : stored) {
                LatencyHistograms.mergeInto(byMinute.computeIfAbsent(h.minute(), m -> LatencyHistograms.empty()),
                        h.histogram());
            }
            List<MinutePoint> curve = new ArrayList<>();
            byMinute.forEach((minute, h) -> {
                total.add(h);
                curve.add(new MinutePoint(minute, LatencyHistograms.summary(h)));
            });
            LatencySummary s = LatencyHistograms.summary(total);
            return new LatencyReport(service, ns, sli, window.start(), window.end(), s.count(), s.p50Ms(),
                    s.p95Ms(), s.p99Ms(), s.maxMs(), LatencyHistograms.PRECISION, curve);
        }));
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
