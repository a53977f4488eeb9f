package io.gpumeter.collector.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.collector.client.JsonBody;
import io.gpumeter.collector.client.LedgerClient;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.kubernetes.FactSink;
import io.gpumeter.collector.kubernetes.WatchStreamReader;
import io.gpumeter.common.fact.BundleResult;
import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Replays a recorded stream of watch events, delivered to the ledger as one bundle of metering and governance facts,
 * stored in one transaction once the whole request is read and checked, so a request is stored whole or not at all.
 */
@ApplicationScoped
public class ReplayService {

    private final LedgerClient ledger;
    private final CollectorConfig config;
    private final MeterRegistry metrics;
    private final ObjectMapper json;
    private final Clock clock;
    private final int parallelism;
    /** Parses the blocks of a request's lines on every core while the request's own thread reads the next block. */
    private final ExecutorService parsers;
    /** Waits for the ledger's answer to a bundle sent while its request is read. */
    private final ExecutorService senders;

    public ReplayService(LedgerClient ledger, CollectorConfig config, MeterRegistry metrics, ObjectMapper json, Clock clock) {
        this.parallelism = Math.max(1, config.replay().parsers().orElse(Runtime.getRuntime().availableProcessors()));
        this.parsers = Executors.newFixedThreadPool(parallelism, daemon("replay-parser-"));
        this.senders = Executors.newCachedThreadPool(daemon("replay-sender-"));
        this.clock = clock;
        this.json = json;
        this.ledger = ledger;
        this.config = config;
        this.metrics = metrics;
    }

    public ReplayResult replay(InputStream body, String cluster) {
        String target = cluster == null || cluster.isEmpty() ? config.cluster() : ClusterName.require("cluster", cluster);
        FactSink sink = new FactSink();
        StreamedBundle streamed = new StreamedBundle(json, target, bundle -> delivered(() -> ledger.deliver(bundle)), senders);
        int events;
        try {
            events = new WatchStreamReader(config.replay().maxLines(), parsers, parallelism)
                    .read(body, clock.instant(), sink, streamed);
        } catch (WatchStreamReader.MalformedLine e) {
            streamed.abandon();
            throw ApiProblem.badRequest("line " + e.line(), e.getMessage());
        } catch (WatchStreamReader.TooManyLines e) {
            streamed.abandon();
            throw ApiProblem.tooLarge("body", e.getMessage());
        } catch (IOException e) {
            streamed.abandon();
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            streamed.abandon();
            throw e;
        }
        BundleResult both;
        if (streamed.started()) {
            both = streamed.finish(bundle(sink, target));
        } else if (sink.facts() == 0 && sink.governanceFacts().isEmpty()) {
            both = new BundleResult(new IngestResult(0, 0), new IngestResult(0, 0));
        } else {
            both = delivered(() -> ledger.deliver(JsonBody.writing(json, () -> bundle(sink, target), parsers)));
        }
        IngestResult stored = both.facts() == null ? new IngestResult(0, 0) : both.facts();
        IngestResult governed = both.governance() == null ? new IngestResult(0, 0) : both.governance();
        metrics.counter("gpumeter.collector.replay.events", "outcome", "accepted").increment(stored.accepted());
        metrics.counter("gpumeter.collector.replay.events", "outcome", "duplicate").increment(stored.duplicates());
        metrics.counter("gpumeter.collector.replay.events", "outcome", "skipped").increment(sink.skippedCount());
        return new ReplayResult(target, events, stored.accepted(), stored.duplicates(), sink.skippedCount(),
                sink.skippedByReason(), governed, stored.skipped());
    }

    @PreDestroy
    void stop() {
        parsers.shutdownNow();
        senders.shutdownNow();
    }

    private static ThreadFactory daemon(String prefix) {
        AtomicInteger threads = new AtomicInteger();
        return task -> {
            Thread t = new Thread(task, prefix + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Metering and governance facts go in one bundle, which the ledger stores whole or not at all; the pods' governance
     * views go as what each says beyond its pod version. A request with pod versions sends its bundle while it is
     * read ({@link StreamedBundle}); one without writes it at the end, on a parser thread, idle by then, while its
     * first pieces are already sent.
     */
    private static FactBundle bundle(FactSink sink, String cluster) {
        GovernanceBatch governed = sink.governanceBatch(cluster);
        return FactBundle.carrying(sink.facts() == 0 ? null : sink.batch(cluster), governed.size() == 0 ? null : governed);
    }

    private static BundleResult delivered(Supplier<BundleResult> delivery) {
        try {
            return delivery.get();
        } catch (ApiProblem e) {
            throw e;
        } catch (FaultToleranceException | jakarta.ws.rs.ProcessingException | jakarta.ws.rs.WebApplicationException e) {
            throw ApiProblem.unavailable("the ledger is unavailable (unreachable or not answering in time); nothing of this request is stored, send it again");
        }
    }
}
