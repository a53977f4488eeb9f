package io.gpumeter.collector.service;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.config.ScrapeConfig;
import io.gpumeter.collector.http.BoundedBody;
import io.gpumeter.collector.usage.DcgmSeries;
import io.gpumeter.collector.usage.PrometheusMatrix;
import io.gpumeter.common.problem.ApiProblem;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Usage the collector fetches itself: scrapes of dcgm-exporter endpoints (configured, or discovered by label), and
 * range queries to a Prometheus that already scrapes them. Each failure is logged and retried next round; the
 * ledger counts overlapping samples once, so a late round loses nothing. A round scrapes up to
 * {@code parallel-scrapes} exporters at once (five thousand nodes one after the other would not fit a 10 s interval),
 * and of the exporters only those of the nodes this collector's {@link ScrapeShard} owns.
 */
@ApplicationScoped
public class UsagePulls {

    private static final Logger LOG = Logger.getLogger(UsagePulls.class);

    private final CollectorConfig config;
    private final UsageIngestService usage;
    private final KubernetesClient kubernetes;
    private final HttpText exporters;
    private final HttpText prometheus;
    /** How long a scrape waits before it tries a full buffer again. */
    private static final java.time.Duration ROOM_WAIT = java.time.Duration.ofMillis(250);

    private final ScrapeShard shard;
    private final ExecutorService scrapers;

    public UsagePulls(CollectorConfig config, UsageIngestService usage, KubernetesClient kubernetes, MeterRegistry metrics) {
        this.config = config;
        this.usage = usage;
        this.kubernetes = kubernetes;
        BoundedBody bounded = new BoundedBody(metrics);
        this.exporters = new HttpText(bounded, "dcgm");
        this.prometheus = new HttpText(bounded, "prometheus");
        this.shard = new ScrapeShard(config.dcgm().shards(), config.dcgm().shardIndex());
        AtomicInteger n = new AtomicInteger();
        this.scrapers = Executors.newFixedThreadPool(Math.max(1, config.dcgm().parallelScrapes()), r -> {
            Thread t = new Thread(r, "dcgm-scrape-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @PreDestroy
    void stop() {
        scrapers.shutdownNow();
    }

    /** Scrapes every exporter of this collector's nodes once, several at a time; returns how many answered and were stored. */
    public int scrapeExporters() {
        List<Future<Boolean>> rounds = new ArrayList<>();
        for (Map.Entry<String, String> target : targets().entrySet()) {
            if (shard.owns(target.getKey())) {
                rounds.add(scrapers.submit(() -> scrape(target.getKey(), target.getValue())));
            }
        }
        int stored = 0;
        for (Future<Boolean> round : rounds) {
            try {
                stored += round.get() ? 1 : 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return stored;
            } catch (ExecutionException e) {
                LOG.warnf("a dcgm-exporter scrape failed: %s", e.getCause());
            }
        }
        return stored;
    }

    private boolean scrape(String node, String url) {
        try {
            String body = exporters.get(URI.create(url), config.dcgm().timeout(), config.dcgm().maxBody().asLongValue());
            hold(body, node);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (IOException | RuntimeException e) {
            LOG.warnf("scrape of %s (%s) failed: %s", node, url, e.getMessage());
            return false;
        }
    }

    /**
     * Holds a scraped page for the ledger. While the buffer is full (the ledger behind), the scrape waits for room, up
     * to one interval, rather than drop the page: a client pushing gets a 503 and sends again, a scrape has nobody to
     * send again, and a page dropped would leave a hole in its node's minutes. Waiting slows the rounds instead, which
     * the intake's lag shows; a page that finds no room in a whole interval is dropped and logged.
     */
    private void hold(String body, String node) throws InterruptedException {
        long deadline = System.nanoTime() + config.dcgm().scrapeInterval().toNanos();
        while (true) {
            try {
                usage.dcgm(body, node, null);
                return;
            } catch (ApiProblem e) {
                if (e.status() != 503 || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(ROOM_WAIT.toMillis());
            }
        }
    }

    /** Pulls the DCGM series of the last lookback window from Prometheus; returns samples stored, -1 when off. */
    public int pullPrometheus(Instant now) {
        if (config.prometheus().url().isEmpty()) {
            return -1;
        }
        ScrapeConfig.Prometheus p = config.prometheus();
        Instant start = now.minus(p.lookback());
        URI uri = URI.create(p.url().get().replaceAll("/+$", "") + "/api/v1/query_range?query="
                + URLEncoder.encode(p.query(), StandardCharsets.UTF_8) + "&start=" + start.getEpochSecond()
                + "&end=" + now.getEpochSecond() + "&step=" + p.step().toSeconds() + "s");
        try {
            var mapping = DcgmSeries.map(PrometheusMatrix.parse(prometheus.get(uri, p.timeout(), p.maxBody().asLongValue())),
                    now, null);
            return usage.deliver(mapping, null).accepted();
        } catch (IOException | IllegalArgumentException | ApiProblem e) {
            LOG.warnf("pull from Prometheus %s failed: %s", p.url().get(), e.getMessage());
            return 0;
        }
    }

    /** Configured exporters, plus the exporter pods found by label in the exporter's namespace (node name to URL). */
    public Map<String, String> targets() {
        Map<String, String> targets = new TreeMap<>(config.dcgm().targets());
        if (config.dcgm().discover()) {
            try {
                for (Pod pod : kubernetes.pods().inNamespace(config.dcgm().discoveryNamespace())
                        .withLabelSelector(config.dcgm().discoverySelector()).list().getItems()) {
                    if (pod.getSpec() != null && pod.getSpec().getNodeName() != null && pod.getStatus() != null
                            && pod.getStatus().getPodIP() != null) {
                        targets.putIfAbsent(pod.getSpec().getNodeName(),
                                "http://" + pod.getStatus().getPodIP() + ":" + config.dcgm().port() + "/metrics");
                    }
                }
            } catch (RuntimeException e) {
                LOG.warnf("dcgm-exporter discovery failed: %s", e.getMessage());
            }
        }
        return targets;
    }
}
