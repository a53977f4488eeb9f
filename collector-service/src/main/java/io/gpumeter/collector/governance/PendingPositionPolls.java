package io.gpumeter.collector.governance;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.http.BoundedBody;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.QueueObjectKind;
import io.gpumeter.common.fact.WatchEventType;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads, on an interval, where each pending Workload stands in the ClusterQueues the watch has seen, from Kueue's
 * visibility API ({@code pendingworkloads}, v1beta2 else v1beta1), and sends the positions with the watched
 * governance facts. A cluster without Kueue's visibility API answers 404: that is normal, and nothing is sent.
 */
@ApplicationScoped
public class PendingPositionPolls {

    static final String GROUP = "/apis/visibility.kueue.x-k8s.io/";
    static final List<String> VERSIONS = List.of("v1beta2", "v1beta1");
    private static final Logger LOG = Logger.getLogger(PendingPositionPolls.class);

    private final KubernetesClient client;
    private final GovernanceBuffer governance;
    private final MeterRegistry metrics;
    private final Set<String> clusterQueues = ConcurrentHashMap.newKeySet();
    private final BoundedBody bounded;
    private final long maxBody;

    public PendingPositionPolls(KubernetesClient client, GovernanceBuffer governance, MeterRegistry metrics,
                                CollectorConfig config) {
        this.client = client;
        this.governance = governance;
        this.metrics = metrics;
        this.bounded = new BoundedBody(metrics);
        this.maxBody = config.kueue().maxBody().asLongValue();
    }

    /** Notes the ClusterQueues among watched governance facts: those are the queues read. */
    public void seen(Object fact) {
        if (fact instanceof QueueObjectFact q && q.kind() == QueueObjectKind.CLUSTER_QUEUE) {
            if (q.type() == WatchEventType.DELETED) {
                clusterQueues.remove(q.name());
            } else {
                clusterQueues.add(q.name());
            }
        }
    }

    @Scheduled(every = "{gpumeter.collector.kueue.pending-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduledPoll() {
        poll(Instant.now());
    }

    /** Reads every known ClusterQueue once; returns how many positions were queued for the ledger. */
    public int poll(Instant at) {
        int queued = 0;
        for (String clusterQueue : new TreeSet<>(clusterQueues)) {
            String body;
            try {
                body = read(clusterQueue);
            } catch (KubernetesClientException e) {
                skipped("pending workloads unreadable (HTTP " + e.getCode() + ")", 1);
                LOG.debugf("pending workloads of %s unreadable: %s", clusterQueue, e.getMessage());
                continue;
            } catch (BoundedBody.TooLarge e) {
                skipped("pending workloads too large", 1);
                continue;
            } catch (IOException e) {
                skipped("pending workloads unreadable", 1);
                LOG.warnf("pending workloads of %s unreadable: %s", clusterQueue, e.getMessage());
                continue;
            }
            if (body == null) {
                continue;
            }
            PendingWorkloads.Read read;
            try {
                read = PendingWorkloads.parse(clusterQueue, body, at);
            } catch (IllegalArgumentException e) {
                skipped("pending workloads not a PendingWorkloadsSummary", 1);
                continue;
            }
            read.skipped().forEach(this::skipped);
            read.positions().forEach(governance::add);
            queued += read.positions().size();
        }
        return queued;
    }

    /** The summary of the first version served; null when neither is (Kueue or its visibility API absent). */
    private String read(String clusterQueue) throws IOException {
        String name = URLEncoder.encode(clusterQueue, StandardCharsets.UTF_8);
        for (String version : VERSIONS) {
            // a 404 means this version of the API, or the queue, is not there
            String body = get(GROUP + version + "/clusterqueues/" + name + "/pendingworkloads");
            if (body != null) {
                return body;
            }
        }
        return null;
    }

    /** A GET through the client's own authenticated HTTP client, read no further than the configured limit. */
    private String get(String path) throws IOException {
        try {
            return getOnce(path);
        } catch (ExecutionException e) {
            throw new IOException("the Kubernetes API did not answer: " + e.getCause(), e);
        }
    }

    private String getOnce(String path) throws IOException, ExecutionException {
        HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder()
                .uri(client.getMasterUrl().toString().replaceAll("/+$", "") + path).build();
        HttpResponse<InputStream> response;
        try {
            response = send(http, request);
        } catch (ExecutionException e) {
            // a pooled connection whose previous answer was refused part-way may be closed under us: once more
            response = send(http, request);
        }
        if (!response.isSuccessful()) {
            discard(response.body());
            if (response.code() == 404) {
                return null;
            }
            throw new KubernetesClientException("HTTP " + response.code(), response.code(), null);
        }
        String length = response.header("Content-Length");
        return bounded.read("kueue", "the pending workloads at " + path, response.body(),
                length == null || !length.matches("\\d{1,18}") ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(length)),
                maxBody);
    }

    private HttpResponse<InputStream> send(HttpClient http, HttpRequest request) throws IOException, ExecutionException {
        try {
            return http.sendAsync(request, InputStream.class)
                    .get(Math.max(1, client.getConfiguration().getRequestTimeout()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (TimeoutException e) {
            throw new IOException("the Kubernetes API did not answer in time", e);
        }
    }

    /** A refusal's body is not read; closing it may fail once the connection is gone, which changes nothing. */
    private static void discard(InputStream body) {
        try (InputStream ignored = body) {
            // closed on leaving
        } catch (IOException | RuntimeException e) {
            LOG.debugf("closing a refused answer failed: %s", e.getMessage());
        }
    }

    private void skipped(String reason, int count) {
        metrics.counter("gpumeter.collector.watch.skipped", "reason", reason).increment(count);
    }
}
