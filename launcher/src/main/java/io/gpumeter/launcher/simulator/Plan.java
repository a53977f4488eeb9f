package io.gpumeter.launcher.simulator;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A simulated fleet history: the time-ordered watch events (what the API server would stream) plus the truths the
 * events were made from, so that a test can derive its expectations without trusting any parser.
 *
 * @param relabelAt when the relabelled namespace changed tenant
 * @param pods      the pods that ask for GPUs (the GPU stack's own pods are in {@code stack})
 * @param stack     what happened to the GPU stack: its driver upgrade, MIG layout, crash loop and image update
 * @param volcanoJobs the Volcano Jobs whose pods are among {@code pods}; their objects are the demo's to send
 */
public record Plan(long seed, SimulationWindow window, Instant relabelAt, List<SimEvent> events, List<SimNode> nodes,
                   List<SimNamespace> namespaces, List<SimPod> pods, StackPlan stack, List<SimVolcanoJob> volcanoJobs) {

    public Plan {
        events = List.copyOf(events);
        nodes = List.copyOf(nodes);
        namespaces = List.copyOf(namespaces);
        pods = List.copyOf(pods);
        volcanoJobs = List.copyOf(volcanoJobs);
    }

    public Instant start() {
        return window.start();
    }

    public Instant end() {
        return window.end();
    }

    public Stream<SimEvent> eventsOfKind(String kind) {
        return events.stream().filter(e -> kind.equals(e.kind()));
    }

    public Stream<SimGpu> gpus() {
        return nodes.stream().flatMap(n -> n.gpus().stream());
    }

    public Optional<SimNamespace> namespace(String name) {
        return namespaces.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    public Optional<SimPod> pod(String uid) {
        return pods.stream().filter(p -> p.uid().equals(uid)).findFirst();
    }

    /** The pods holding a piece of GPU {@code gpuUuid} at {@code at}. */
    public List<SimPod> occupants(String gpuUuid, Instant at) {
        return pods.stream().filter(p -> p.holdsAt(gpuUuid, at)).toList();
    }
}
