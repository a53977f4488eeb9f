package io.gpumeter.ledger.hami.domain;

import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.ledger.history.domain.GpuBinding;
import io.gpumeter.ledger.history.domain.PodHistory;
import io.gpumeter.ledger.inventory.domain.NodeInventory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides which of the HAMi grants a pod's annotations name it holds. The annotations are the tenant's to write, so
 * a grant books its card only where everything the tenant cannot write agrees with it ({@link HamiCheck}); the
 * others book nothing and are kept as refusals, those waiting for their node apart.
 */
public final class HamiGrants {

    static final String BOUND = "success";

    private final HamiResources resources;

    public HamiGrants(HamiResources resources) {
        this.resources = resources;
    }

    /** The grants a pod holds, and the ones it names but does not. */
    public record Verdict(List<VgpuGrant> held, List<Refusal> refused) {
        static final Verdict NONE = new Verdict(List.of(), List.of());

        /** Whether some grant waits for the pod's node before it is booked or refused. */
        public boolean waiting() {
            return refused.stream().anyMatch(r -> r.check().waits());
        }
    }

    /** A grant not booked, and the first check it failed. */
    public record Refusal(VgpuGrant grant, HamiCheck check, String detail) {
    }

    /**
     * @param node      the inventory of the pod's node, or null while the ledger has not seen the node
     * @param bindings  what the device side saw of the pod (dcgm-exporter's pod mapping)
     * @param since     the start of the pod's allocation
     * @param until     its end, or null while held
     */
    public Verdict verify(PodHistory history, NodeInventory node, List<GpuBinding> bindings, Instant since,
                          Instant until) {
        Optional<PodFact> bound = boundVersion(history);
        PodFact granting = bound.orElseGet(() -> latestWithGrants(history));
        if (granting == null) {
            return Verdict.NONE;
        }
        List<VgpuGrant> held = new ArrayList<>();
        List<Refusal> refused = new ArrayList<>();
        String nodeName = history.placement().map(PodFact::nodeName).orElse(granting.nodeName());
        long asked = history.latest().gpuResources().getOrDefault(resources.count(), 0L);
        List<VgpuGrant> grants = granting.vgpus();
        for (int i = 0; i < grants.size(); i++) {
            VgpuGrant grant = grants.get(i);
            Refusal refusal = firstFailure(grant, i, asked, granting, nodeName, history.latest().gpuResources(), node,
                    bindings, since, until);
            if (refusal == null) {
                held.add(grant);
            } else {
                refused.add(refusal);
            }
        }
        bound.ifPresent(b -> changedAfterBinding(history, b).forEach(g -> refused.add(new Refusal(g,
                HamiCheck.CHANGED_AFTER_BINDING, "a version after the one HAMi bound names " + g.uuid()))));
        return new Verdict(List.copyOf(held), List.copyOf(refused));
    }

    private Refusal firstFailure(VgpuGrant grant, int index, long asked, PodFact granting, String nodeName,
                                 Map<String, Long> spec, NodeInventory node, List<GpuBinding> bindings,
                                 Instant since, Instant until) {
        if (index >= asked) {
            return new Refusal(grant, HamiCheck.NOT_REQUESTED, "the pod asks for " + asked + " of "
                    + resources.count() + "; this is grant " + (index + 1));
        }
        if (!BOUND.equals(granting.hamiBindPhase())) {
            return new Refusal(grant, HamiCheck.NOT_BOUND, "hami.io/bind-phase is "
                    + (granting.hamiBindPhase() == null ? "absent" : "'" + granting.hamiBindPhase() + "'"));
        }
        if (granting.hamiNode() != null && !granting.hamiNode().equals(nodeName)) {
            return new Refusal(grant, HamiCheck.BOUND_ELSEWHERE, "hami.io/vgpu-node is '" + granting.hamiNode()
                    + "', the pod runs on '" + nodeName + "'");
        }
        if (node == null) {
            return new Refusal(grant, HamiCheck.NODE_NOT_KNOWN, "node '" + nodeName + "' not seen yet");
        }
        Optional<RegisteredGpu> card = node.gpus().stream().filter(g -> grant.uuid().equals(g.uuid())).findFirst();
        if (card.isEmpty()) {
            return new Refusal(grant, HamiCheck.CARD_NOT_ON_NODE, "node '" + nodeName + "' registers "
                    + node.gpus().stream().map(RegisteredGpu::uuid).toList());
        }
        long memoryLimit = memoryLimit(spec, card.get().memoryMib());
        if (grant.memoryMib() > memoryLimit) {
            return new Refusal(grant, HamiCheck.MEMORY_OVER_REQUEST, "granted " + grant.memoryMib()
                    + " MiB, at most " + memoryLimit + " MiB asked for or registered");
        }
        long coresLimit = spec.containsKey(resources.cores())
                ? Math.min(100, spec.get(resources.cores())) : resources.defaultCores();
        if (grant.cores() > coresLimit) {
            return new Refusal(grant, HamiCheck.CORES_OVER_REQUEST, "granted " + grant.cores() + " % cores, at most "
                    + coresLimit + " % asked for");
        }
        List<String> seen = bindings.stream().filter(b -> !b.isMigInstance() && b.during(since, until))
                .map(GpuBinding::gpuUuid).distinct().sorted().toList();
        if (!seen.isEmpty() && !seen.contains(grant.uuid())) {
            return new Refusal(grant, HamiCheck.DEVICE_SEES_OTHER_CARD,
                    "the device side (dcgm-exporter, HAMi's monitor or a pusher) saw the pod on " + seen);
        }
        return null;
    }

    /**
     * The most memory one grant may give: what the spec asks per vGPU in MiB, else its percentage of the card's
     * registered memory (after HAMi's memory scaling), else the card's whole registered memory.
     */
    private long memoryLimit(Map<String, Long> spec, long registeredMib) {
        long card = registeredMib > 0 ? registeredMib : Long.MAX_VALUE;
        if (spec.containsKey(resources.memory())) {
            return Math.min(spec.get(resources.memory()), card);
        }
        if (spec.containsKey(resources.memoryPercentage()) && registeredMib > 0) {
            long percentage = Math.min(100, spec.get(resources.memoryPercentage()));
            return (registeredMib * percentage + 99) / 100;
        }
        return card;
    }

    /** The first version in which HAMi had completed the binding and named the grants. */
    private static Optional<PodFact> boundVersion(PodHistory history) {
        return history.versions().stream()
                .filter(v -> BOUND.equals(v.hamiBindPhase()) && !v.vgpus().isEmpty() && v.nodeName() != null)
                .findFirst();
    }

    private static PodFact latestWithGrants(PodHistory history) {
        List<PodFact> versions = history.versions();
        for (int i = versions.size() - 1; i >= 0; i--) {
            if (!versions.get(i).vgpus().isEmpty()) {
                return versions.get(i);
            }
        }
        return null;
    }

    /** Grants that later versions name beyond the bound version's: annotations patched after HAMi was done. */
    private static List<VgpuGrant> changedAfterBinding(PodHistory history, PodFact bound) {
        List<VgpuGrant> extra = new ArrayList<>();
        boolean after = false;
        for (PodFact version : history.versions()) {
            if (version == bound) {
                after = true;
                continue;
            }
            if (after) {
                version.vgpus().stream().filter(g -> !bound.vgpus().contains(g) && !extra.contains(g)).forEach(extra::add);
            }
        }
        return extra;
    }
}
