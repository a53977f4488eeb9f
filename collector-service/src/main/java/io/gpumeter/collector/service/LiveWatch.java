package io.gpumeter.collector.service;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.gpumeter.collector.client.LedgerClient;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.governance.GovernanceBuffer;
import io.gpumeter.collector.governance.GovernanceInformers;
import io.gpumeter.collector.governance.PendingPositionPolls;
import io.gpumeter.collector.host.GpuPlaces;
import io.gpumeter.collector.kubernetes.DraInformers;
import io.gpumeter.collector.kubernetes.ContentChanges;
import io.gpumeter.collector.kubernetes.FactSink;
import io.gpumeter.collector.kubernetes.GpuStack;
import io.gpumeter.collector.kubernetes.StackInformers;
import io.gpumeter.common.fact.LivePodSet;
import io.gpumeter.common.fact.WatchEventType;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The live path: informers on Namespaces, Nodes, Pods, DRA objects and the GPU stack's workloads turn every change into
 * a fact in the buffer. Without a reachable API server the suite stays up and this reports itself degraded, trying
 * again on an interval.
 */
@ApplicationScoped
public class LiveWatch {

    /** What the watch is doing, for health and logs. */
    public enum State { DISABLED, STARTING, WATCHING, DEGRADED }

    private static final Logger LOG = Logger.getLogger(LiveWatch.class);
    static final int STACK_OBJECTS = 200_000;

    private final KubernetesClient client;
    private final CollectorConfig config;
    private final FactBuffer buffer;
    private final LedgerClient ledger;
    private final GovernanceBuffer governance;
    private final PendingPositionPolls pendingPositions;
    private final MeterRegistry metrics;
    private final List<SharedIndexInformer<? extends HasMetadata>> informers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final MeteringChanges changes = new MeteringChanges();
    /**
     * The GPU stack's facts sent, by object: a node's or a DaemonSet's heartbeat versions say nothing new. Room for
     * the nodes, workloads and stack pods of a large cluster (a node and some ten stack pods each); past it, the least
     * recently heard of is forgotten and its next version sent again.
     */
    private final ContentChanges stackChanges = new ContentChanges(STACK_OBJECTS);
    private final List<SharedIndexInformer<Pod>> podInformers = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Pod informers of GPU-stack namespaces outside {@code gpumeter.collector.watch.namespaces}: stack facts only. */
    private final List<SharedIndexInformer<Pod>> stackPodInformers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final GpuStack stack;
    /** The GPU pods and nodes host intake keeps the series of. */
    private final GpuPlaces places;
    private volatile State state;
    private volatile String problem;

    private final Clock clock;

    public LiveWatch(KubernetesClient client, CollectorConfig config, FactBuffer buffer, GovernanceBuffer governance,
                     PendingPositionPolls pendingPositions, LedgerClient ledger, MeterRegistry metrics, Clock clock,
                     GpuStack stack, GpuPlaces places) {
        this.places = places;
        this.clock = clock;
        this.stack = stack;
        this.pendingPositions = pendingPositions;
        this.client = client;
        this.config = config;
        this.buffer = buffer;
        this.ledger = ledger;
        this.governance = governance;
        this.metrics = metrics;
        this.state = config.watch().enabled() ? State.STARTING : State.DISABLED;
    }

    /** Watching only while every informer's watch is up; a broken watch reconnects by itself meanwhile. */
    public State state() {
        State current = state;
        if (current == State.WATCHING && informers.stream().anyMatch(i -> !i.isWatching())) {
            return State.DEGRADED;
        }
        return current;
    }

    public String problem() {
        return problem;
    }

    /** Starts the informers when enabled and not running; safe to call again after a failure. */
    public synchronized void ensureStarted() {
        if (state == State.DISABLED || state == State.WATCHING) {
            return;
        }
        stopInformers();
        long resync = config.watch().resync().toMillis();
        informers.add(client.namespaces().runnableInformer(resync));
        informers.add(client.nodes().runnableInformer(resync));
        List<String> namespaces = config.watch().namespaces().orElse(List.of());
        if (namespaces.isEmpty()) {
            podInformers.add(client.pods().inAnyNamespace().runnableInformer(resync));
        } else {
            namespaces.forEach(ns -> podInformers.add(client.pods().inNamespace(ns).runnableInformer(resync)));
        }
        informers.addAll(podInformers);
        try {
            informers.addAll(DraInformers.create(client, resync, namespaces));
            informers.addAll(GovernanceInformers.create(client, resync, namespaces));
            StackInformers.Created stackInformers = StackInformers.create(client, resync, stack.components(), namespaces);
            informers.addAll(stackInformers.workloads());
            stackPodInformers.addAll(stackInformers.pods());
            informers.addAll(stackPodInformers);
        } catch (RuntimeException e) {
            // discovery failed rather than answered: try the whole start again, as for a failing first list
            degraded(e);
            return;
        }
        informers.forEach(this::handle);
        // A failing first list ends the start so this class can report and retry; later watch errors retry inside.
        informers.forEach(i -> i.exceptionHandler((started, failure) -> started));
        CompletableFuture<?>[] started = informers.stream()
                .map(i -> i.start().toCompletableFuture()).toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(started).whenComplete((ok, failure) -> {
            if (failure == null) {
                state = State.WATCHING;
                problem = null;
                LOG.info("watching Namespaces, Nodes and Pods");
                CompletableFuture.runAsync(this::sendLivePods);
            } else {
                degraded(failure);
            }
        });
    }

    private void degraded(Throwable failure) {
        state = State.DEGRADED;
        problem = "the Kubernetes API is unreachable: " + rootMessage(failure);
        LOG.warnf("live watch degraded, retrying in %s: %s", config.watch().retryInterval(), problem);
        stopInformers();
    }

    public synchronized void stop() {
        stopInformers();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void handle(SharedIndexInformer<? extends HasMetadata> informer) {
        boolean stackOnly = stackPodInformers.contains(informer);
        ((SharedIndexInformer) informer).addEventHandler(new ResourceEventHandler<HasMetadata>() {
            @Override
            public void onAdd(HasMetadata obj) {
                record(WatchEventType.ADDED, obj, stackOnly);
            }

            @Override
            public void onUpdate(HasMetadata oldObj, HasMetadata newObj) {
                record(WatchEventType.MODIFIED, newObj, stackOnly);
            }

            @Override
            public void onDelete(HasMetadata obj, boolean deletedFinalStateUnknown) {
                record(WatchEventType.DELETED, obj, stackOnly);
            }
        });
    }

    /** @param stackOnly the object is a pod of a stack namespace outside the metering watch: its stack fact only */
    private void record(WatchEventType type, HasMetadata object, boolean stackOnly) {
        FactSink sink = new FactSink(stack);
        if (stackOnly && object instanceof Pod pod) {
            sink.acceptStackPod(type, pod, clock.instant());
        } else {
            sink.accept(type, object, clock.instant());
        }
        long now = clock.millis();
        for (Object fact : sink.all()) {
            places.learn(config.cluster(), fact, now);
            if (changes.isNews(fact)) {
                buffer.add(fact);
            } else {
                sink.skip("unchanged for metering");
            }
        }
        sink.governanceFacts().forEach(fact -> {
            places.learn(config.cluster(), fact, now);
            if (stackChanges.isNews(config.cluster(), fact)) {
                governance.add(fact);
                pendingPositions.seen(fact);
            } else {
                sink.skip("unchanged GPU-stack state");
            }
        });
        for (Map.Entry<String, Integer> skipped : sink.skippedByReason().entrySet()) {
            metrics.counter("gpumeter.collector.watch.skipped", "reason", skipped.getKey()).increment(skipped.getValue());
        }
    }

    /**
     * After a (re)list, tells the ledger which pods exist, so pods deleted while nobody watched are closed instead
     * of counting on forever. Sent once per start; a failure is logged and the next start sends it again.
     */
    void sendLivePods() {
        try {
            List<String> uids = new ArrayList<>();
            String version = null;
            for (SharedIndexInformer<Pod> informer : podInformers) {
                informer.getStore().list().forEach(p -> uids.add(p.getMetadata().getUid()));
                version = newest(version, informer.lastSyncResourceVersion());
            }
            if (version == null) {
                return;
            }
            ledger.deliver(new LivePodSet(config.cluster(), version, clock.instant(),
                    config.watch().namespaces().orElse(List.of()), uids));
        } catch (RuntimeException e) {
            LOG.warnf("could not tell the ledger which pods exist: %s", e.getMessage());
        }
    }

    private static String newest(String a, String b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        try {
            return Long.parseLong(a) >= Long.parseLong(b) ? a : b;
        } catch (NumberFormatException e) {
            return b;
        }
    }

    private void stopInformers() {
        informers.forEach(i -> {
            try {
                i.stop();
            } catch (RuntimeException e) {
                LOG.debug("stopping an informer failed", e);
            }
        });
        informers.clear();
        podInformers.clear();
        stackPodInformers.clear();
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
