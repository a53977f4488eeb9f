package io.gpumeter.collector.governance;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.http.BoundedApiGet;
import io.gpumeter.collector.http.BoundedBody;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.QueueObjectKind;
import io.gpumeter.common.fact.WatchEventType;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

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
    private final BoundedApiGet api;
    private final long maxBody;

    private final Clock clock;

    public PendingPositionPolls(KubernetesClient client, GovernanceBuffer governance, MeterRegistry metrics,
                                CollectorConfig config, Clock clock) {
        this.clock = clock;
        this.client = client;
        this.governance = governance;
        this.metrics = metrics;
        this.api = new BoundedApiGet(client, new BoundedBody(metrics));
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
        poll(clock.instant());
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
            String body = api.get("kueue", GROUP + version + "/clusterqueues/" + name + "/pendingworkloads", maxBody);
            if (body != null) {
                return body;
            }
        }
        return null;
    }

    private void skipped(String reason, int count) {
        metrics.counter("gpumeter.collector.watch.skipped", "reason", reason).increment(count);
    }
}
