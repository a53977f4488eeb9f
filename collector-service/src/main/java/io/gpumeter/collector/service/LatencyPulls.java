package io.gpumeter.collector.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpumeter.collector.client.SloClient;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.config.ScrapeConfig;
import io.gpumeter.collector.http.BoundedBody;
import io.gpumeter.collector.latency.EngineGaugeRecord;
import io.gpumeter.collector.latency.EngineGaugeRecords;
import io.gpumeter.collector.latency.EngineGauges;
import io.gpumeter.collector.latency.LatencyRecord;
import io.gpumeter.collector.latency.SyntheticRequests;
import io.gpumeter.collector.latency.VllmExposition;
import io.gpumeter.collector.usage.PrometheusTextParser;
import io.gpumeter.collector.usage.Sample;
import io.gpumeter.collector.usage.UsageParseException;
import io.gpumeter.common.problem.ApiProblem;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Scrapes vLLM servers for their latency histograms and forwards what each counted since the previous scrape to
 * slo-service as per-request records. A server's first scrape only sets the baseline. A scrape whose records
 * slo-service did not take keeps the old baseline, so the next round sends them with its own. The same scrape's
 * cache gauges go as one line per pod and model; lines slo-service could not take are not sent again (a gauge is a
 * reading of its instant), but the prefix-cache counters keep their baseline, so the next line's hit rate covers
 * both intervals.
 */
@ApplicationScoped
public class LatencyPulls {

    private static final Logger LOG = Logger.getLogger(LatencyPulls.class);

    /** A server to scrape; {@code service} null means "the model name". */
    record Target(String namespace, String pod, String url, String service) {
        String key() {
            return namespace + "/" + pod + " " + url;
        }
    }

    /** What one round did: servers, servers read, request records and gauge lines slo-service took. */
    public record Round(int targets, int scraped, int records, int gaugeLines) {
    }

    private final CollectorConfig config;
    private final SloClient slo;
    private final KubernetesClient kubernetes;
    private final ObjectMapper json;
    private final MeterRegistry metrics;
    private final HttpText http;
    private final Map<String, VllmExposition> baselines = new ConcurrentHashMap<>();
    private final Map<String, EngineGauges> gaugeBaselines = new ConcurrentHashMap<>();

    public LatencyPulls(CollectorConfig config, SloClient slo, KubernetesClient kubernetes, ObjectMapper json,
                        MeterRegistry metrics) {
        this.config = config;
        this.slo = slo;
        this.kubernetes = kubernetes;
        this.json = json;
        this.metrics = metrics;
        this.http = new HttpText(new BoundedBody(metrics), "vllm");
    }

    /** Scrapes every server once, stamping its records with {@code now}. */
    public Round scrape(Instant now) {
        Map<String, Target> targets = targets();
        Set<String> keys = targets.values().stream().map(Target::key).collect(Collectors.toSet());
        baselines.keySet().retainAll(keys);
        gaugeBaselines.keySet().retainAll(keys);
        int scraped = 0;
        int records = 0;
        int gaugeLines = 0;
        for (Target target : targets.values()) {
            try {
                List<Sample> samples = new PrometheusTextParser()
                        .parse(http.get(URI.create(target.url()), config.vllm().timeout(), config.vllm().maxBody().asLongValue()));
                VllmExposition exposition = VllmExposition.read(samples);
                EngineGauges gauges = EngineGauges.read(samples);
                exposition.problems().forEach(p -> LOG.debugf("vLLM %s/%s: %s", target.namespace(), target.pod(), p));
                gauges.problems().forEach(p -> LOG.debugf("vLLM %s/%s: %s", target.namespace(), target.pod(), p));
                records += forward(target, exposition, now);
                gaugeLines += forwardGauges(target, gauges, now);
                scraped++;
                metrics.counter("gpumeter.collector.latency.scrapes", "outcome", "ok").increment();
            } catch (IOException | UsageParseException | IllegalArgumentException e) {
                metrics.counter("gpumeter.collector.latency.scrapes", "outcome", "failed").increment();
                LOG.warnf("scrape of vLLM %s/%s (%s) failed: %s", target.namespace(), target.pod(), target.url(),
                        e.getMessage());
            }
        }
        return new Round(targets.size(), scraped, records, gaugeLines);
    }

    /** Sends the records counted since the baseline; returns how many slo-service took. */
    private int forward(Target target, VllmExposition exposition, Instant now) {
        VllmExposition before = baselines.get(target.key());
        List<LatencyRecord> records;
        try {
            records = before == null ? List.of() : SyntheticRequests.between(before, exposition, now,
                    target.namespace(), target.pod(), target.service(), config.vllm().maxRecords());
        } catch (IllegalStateException e) {
            LOG.warnf("vLLM %s/%s: %s; dropped as implausible", target.namespace(), target.pod(), e.getMessage());
            records = List.of();
        }
        if (!records.isEmpty()) {
            try {
                slo.deliver(ndjson(records));
            } catch (ApiProblem e) {
                LOG.warnf("slo-service refused %d records of %s/%s: %s", records.size(), target.namespace(),
                        target.pod(), e.getMessage());
                records = List.of(); // the body itself is wrong: sending it again cannot help
            } catch (FaultToleranceException | jakarta.ws.rs.ProcessingException
                     | jakarta.ws.rs.WebApplicationException e) {
                LOG.warnf("slo-service is unreachable; %d records of %s/%s wait for the next round", records.size(),
                        target.namespace(), target.pod());
                return 0;
            }
        }
        baselines.put(target.key(), exposition);
        metrics.counter("gpumeter.collector.latency.records").increment(records.size());
        return records.size();
    }

    /** Sends this scrape's gauge lines; returns how many slo-service took. */
    private int forwardGauges(Target target, EngineGauges gauges, Instant now) {
        List<EngineGaugeRecord> lines = EngineGaugeRecords.between(gaugeBaselines.get(target.key()), gauges, now,
                target.namespace(), target.pod(), target.service());
        if (!lines.isEmpty()) {
            try {
                slo.deliverGauges(ndjson(lines));
            } catch (ApiProblem e) {
                LOG.warnf("slo-service refused the engine gauges of %s/%s: %s", target.namespace(), target.pod(),
                        e.getMessage());
                lines = List.of();
            } catch (FaultToleranceException | jakarta.ws.rs.ProcessingException
                     | jakarta.ws.rs.WebApplicationException e) {
                LOG.warnf("slo-service is unreachable; the engine gauges of %s/%s are dropped", target.namespace(),
                        target.pod());
                return 0;
            }
        }
        gaugeBaselines.put(target.key(), gauges);
        metrics.counter("gpumeter.collector.latency.gauge.lines").increment(lines.size());
        return lines.size();
    }

    private String ndjson(List<?> records) {
        StringBuilder body = new StringBuilder();
        for (Object record : records) {
            try {
                body.append(json.writeValueAsString(record)).append('\n');
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }
        return body.toString();
    }

    /** Configured servers, plus the vLLM pods found by label, by "namespace/pod". */
    Map<String, Target> targets() {
        ScrapeConfig.Vllm v = config.vllm();
        Map<String, Target> targets = new TreeMap<>();
        v.targets().forEach((name, url) -> {
            int slash = name.indexOf('/');
            if (slash <= 0 || slash == name.length() - 1) {
                LOG.warnf("vLLM target %s is not namespace/pod; skipped", name);
                return;
            }
            targets.put(name, new Target(name.substring(0, slash), name.substring(slash + 1), url,
                    v.services().get(name)));
        });
        if (v.discover()) {
            try {
                for (Pod pod : kubernetes.pods().inAnyNamespace().withLabelSelector(v.discoverySelector()).list()
                        .getItems()) {
                    if (pod.getStatus() != null && pod.getStatus().getPodIP() != null
                            && "Running".equals(pod.getStatus().getPhase())) {
                        String ns = pod.getMetadata().getNamespace();
                        String name = pod.getMetadata().getName();
                        Map<String, String> labels = pod.getMetadata().getLabels();
                        targets.putIfAbsent(ns + "/" + name, new Target(ns, name, "http://" + pod.getStatus().getPodIP()
                                + ":" + v.port() + v.path(), labels == null ? null : labels.get(v.serviceLabel())));
                    }
                }
            } catch (RuntimeException e) {
                LOG.warnf("vLLM discovery failed: %s", e.getMessage());
            }
        }
        return targets;
    }
}
