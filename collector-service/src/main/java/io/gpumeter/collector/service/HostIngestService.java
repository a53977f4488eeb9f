package io.gpumeter.collector.service;

import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.host.CadvisorSeries;
import io.gpumeter.collector.host.GpuPlaces;
import io.gpumeter.collector.host.HostInputException;
import io.gpumeter.collector.host.HostMapping;
import io.gpumeter.collector.host.HostSource;
import io.gpumeter.collector.host.HostTracks;
import io.gpumeter.collector.host.NodeExporterSeries;
import io.gpumeter.collector.usage.PrometheusTextParser;
import io.gpumeter.collector.usage.Sample;
import io.gpumeter.collector.usage.UsageParseException;
import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.problem.ApiProblem;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Host series — kubelet's cAdvisor page and node-exporter's — pushed, scraped or pulled: parsed whole by the parser
 * dcgm-exporter's text goes through, checked (a negative counter refuses the body), cut to GPU pods' cgroups and GPU
 * nodes, and folded into per-minute increases per node and source ({@link HostTracks}); the minutes a body closes
 * go to the ledger through {@link HostDelivery}. A body refused, or whose minutes could not be handed on, leaves
 * nothing behind: sent again, it counts once.
 */
@ApplicationScoped
public class HostIngestService {

    private final CollectorConfig config;
    private final HostDelivery delivery;
    private final GpuPlaces places;
    private final Clock clock;
    private final MeterRegistry metrics;
    private final HostTracks tracks;
    private final Pattern excludedDevices;

    public HostIngestService(CollectorConfig config, HostDelivery delivery, GpuPlaces places, Clock clock,
                             MeterRegistry metrics) {
        this.config = config;
        this.delivery = delivery;
        this.places = places;
        this.clock = clock;
        this.metrics = metrics;
        this.tracks = new HostTracks(config.host().maxGap().toMillis());
        this.excludedDevices = Pattern.compile(config.host().excludedDevices());
    }

    /** A kubelet's {@code /metrics/cadvisor} page of one node. */
    public HostIngestResult cadvisor(String body, String node, String cluster) {
        return push(HostSource.CADVISOR, body, node, cluster);
    }

    /** A node-exporter's {@code /metrics} page of one node. */
    public HostIngestResult nodeExporter(String body, String node, String cluster) {
        return push(HostSource.NODE_EXPORTER, body, node, cluster);
    }

    private HostIngestResult push(HostSource source, String body, String node, String cluster) {
        if (node == null || node.isBlank()) {
            throw ApiProblem.badRequest("node", "node is required: the name of the node the body was taken on");
        }
        String target = cluster(cluster);
        delivery.requireRoom();
        List<Sample> samples;
        try {
            samples = new PrometheusTextParser().parse(body);
        } catch (UsageParseException e) {
            throw ApiProblem.badRequest("line " + e.line(), e.getMessage() + "; nothing of this body is stored");
        }
        return samples(source, samples, node.strip(), target);
    }

    /** One node's samples of one source, from a push, a scrape or a pull (which name their cluster themselves). */
    public HostIngestResult samples(HostSource source, List<Sample> samples, String node, String cluster) {
        long now = clock.millis();
        HostMapping mapping;
        try {
            mapping = source == HostSource.CADVISOR
                    ? CadvisorSeries.map(samples, now, (ns, pod) -> places.gpuPod(cluster, ns, pod, now))
                    : places.gpuNode(cluster, node, now) ? NodeExporterSeries.map(samples, now, excludedDevices)
                    : new io.gpumeter.collector.host.HostMapping(List.of(), 0, samples.size());
        } catch (HostInputException e) {
            throw ApiProblem.badRequest(e.field(), e.getMessage());
        }
        int minutes = tracks.apply(new HostTracks.Key(cluster, node, source), mapping.readings(), now, delivery::accept);
        String tag = source.name().toLowerCase(java.util.Locale.ROOT);
        metrics.counter("gpumeter.collector.host.samples", "source", tag, "outcome", "kept").increment(mapping.readings().size());
        metrics.counter("gpumeter.collector.host.samples", "source", tag, "outcome", "other")
                .increment(mapping.other() + mapping.unknown());
        metrics.counter("gpumeter.collector.host.minutes", "source", tag).increment(minutes);
        return new HostIngestResult(cluster, node, samples.size(), mapping.readings().size(), mapping.unknown(),
                mapping.other(), minutes, delivery.buffered());
    }

    /** The cluster a push names, else this collector's. */
    String cluster(String cluster) {
        return cluster == null || cluster.isEmpty() ? config.cluster() : ClusterName.require("cluster", cluster);
    }

    /** Closes the minutes of rows and nodes fallen silent, and forgets GPU pods gone past their grace. */
    @Scheduled(every = "60s", delayed = "60s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sweep() {
        long now = clock.millis();
        try {
            tracks.sweep(now, delivery::accept);
        } catch (RuntimeException e) {
            // kept as they were: the next sweep hands them on again
        }
        places.prune(now);
    }

    /** Rows tracked, for tests and the gauge. */
    public int rows() {
        return tracks.rows();
    }
}
