package io.gpumeter.collector.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.collector.client.JsonBody;
import io.gpumeter.collector.client.LedgerClient;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.kubernetes.FactSink;
import io.gpumeter.collector.host.GpuPlaces;
import io.gpumeter.collector.kubernetes.GpuStack;
import io.gpumeter.collector.kubernetes.WatchStreamReader;
import io.gpumeter.common.fact.BundleResult;
import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.problem.ApiProblem;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Replays a recorded stream of watch events: the whole request is read and checked before anything is sent,
 * then delivered to the ledger as one bundle of metering and governance facts, stored in one transaction, so a
 * request is stored whole or not at all.
 */
@ApplicationScoped
public class ReplayService {

    private final LedgerClient ledger;
    private final CollectorConfig config;
    private final MeterRegistry metrics;
    private final ObjectMapper json;
    private final Clock clock;
    private final int parallelism;
    /**
     * Parse the blocks of a request's lines on every core while the request's own thread reads the next block, and
     * write its bundle; the request that arrived first goes first.
     */
    private final OldestFirst parsers;

    private final GpuStack stack;
    /** The GPU pods and nodes host intake keeps the series of: a replayed GPU pod is one. */
    private final GpuPlaces places;

    public ReplayService(LedgerClient ledger, CollectorConfig config, MeterRegistry metrics, ObjectMapper json, Clock clock,
                         GpuStack stack, GpuPlaces places) {
        this.places = places;
        this.stack = stack;
        this.parallelism = Math.max(1, config.replay().parsers().orElse(Runtime.getRuntime().availableProcessors()));
        this.parsers = new OldestFirst(parallelism, "replay-parser");
        this.clock = clock;
        this.json = json;
        this.ledger = ledger;
        this.config = config;
        this.metrics = metrics;
    }

    public ReplayResult replay(InputStream body, String cluster) {
        String target = cluster == null || cluster.isEmpty() ? config.cluster() : ClusterName.require("cluster", cluster);
        FactSink sink = new FactSink(stack);
        Executor threads = parsers.forNextRequest();
        int events;
        try {
            events = new WatchStreamReader(config.replay().maxLines(), threads, parallelism).read(body, clock.instant(), sink);
        } catch (WatchStreamReader.MalformedLine e) {
            throw ApiProblem.badRequest("line " + e.line(), e.getMessage());
        } catch (WatchStreamReader.TooManyLines e) {
            throw ApiProblem.tooLarge("body", e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long now = clock.millis();
        sink.forEachCollected(fact -> places.learn(target, fact, now));
        int skipped = sink.skippedCount();
        Map<String, Integer> skippedByReason = sink.skippedByReason();
        BundleResult both = sink.facts() == 0 && sink.governanceFacts().isEmpty()
                ? new BundleResult(new IngestResult(0, 0), new IngestResult(0, 0)) : deliver(sink, target, threads);
        IngestResult stored = both.facts() == null ? new IngestResult(0, 0) : both.facts();
        IngestResult governed = both.governance() == null ? new IngestResult(0, 0) : both.governance();
        metrics.counter("gpumeter.collector.replay.events", "outcome", "accepted").increment(stored.accepted());
        metrics.counter("gpumeter.collector.replay.events", "outcome", "duplicate").increment(stored.duplicates());
        metrics.counter("gpumeter.collector.replay.events", "outcome", "skipped").increment(skipped);
        return new ReplayResult(target, events, stored.accepted(), stored.duplicates(), skipped, skippedByReason,
                governed, stored.skipped(), stored.findings());
    }

    @PreDestroy
    void stop() {
        parsers.shutdownNow();
    }

    /**
     * Metering and governance facts go in one bundle, which the ledger stores whole or not at all; the pods'
     * governance views go as what each says beyond its pod version. The bundle is written on a parser thread, idle by
     * then, while its first pieces are already sent, so that the ledger reads it meanwhile.
     */
    private BundleResult deliver(FactSink sink, String cluster, Executor writer) {
        try {
            return ledger.deliver(JsonBody.writing(json, () -> sink.handOver(cluster), writer));
        } catch (ApiProblem e) {
            throw e;
        } catch (FaultToleranceException | jakarta.ws.rs.ProcessingException | jakarta.ws.rs.WebApplicationException e) {
            throw ApiProblem.unavailable("the ledger is unavailable (unreachable or not answering in time); nothing of this request is stored, send it again");
        }
    }
}
