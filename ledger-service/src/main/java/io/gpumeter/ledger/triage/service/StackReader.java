package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.ledger.governance.service.GpuStackService.GpuStack;
import io.gpumeter.ledger.governance.service.GpuStackService;
import io.gpumeter.ledger.triage.domain.NodeStack;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A node's GPU stack at an instant as the triage reads it: the GPU stack read, cut to what the tree asks. */
@ApplicationScoped
public class StackReader {

    static final String GPU = "nvidia.com/gpu";

    private final GpuStackService stacks;

    public StackReader(GpuStackService stacks) {
        this.stacks = stacks;
    }

    /** The node's stack at the instant; a null item when the ledger holds no version of it by then. */
    public Uni<NodeStack> at(String cluster, String node, Instant at) {
        if (node == null) {
            return Uni.createFrom().nullItem();
        }
        return stacks.at(cluster, node, at).map(StackReader::of)
                .onFailure(e -> e instanceof ApiProblem p && p.status() == 404).recoverWithNull();
    }

    static NodeStack of(GpuStack s) {
        Long capacity = null;
        Long allocatable = null;
        for (GpuStackService.Resource r : s.resources()) {
            if (GPU.equals(r.resource())) {
                capacity = r.capacity();
                allocatable = r.allocatable();
            }
        }
        List<NodeStack.ComponentPod> plugins = new ArrayList<>();
        for (GpuStackService.Component c : s.components()) {
            if (c.component().endsWith("device-plugin")) {
                GpuStackService.Pod p = c.pod();
                plugins.add(new NodeStack.ComponentPod(c.component(), p.state(), p.namespace(), p.name(), p.restarts(),
                        p.waitingReason()));
            }
        }
        var mig = s.mig();
        return new NodeStack(s.node(), s.at(), s.present(), s.gpuLabels().driverVersion(), s.gpuLabels().cudaVersion(),
                capacity, allocatable, s.cordoned(), plugins, s.gpuLabels().migConfig(), s.gpuLabels().migConfigState(),
                mig == null || mig.layout() == null ? null : mig.verdict().name(), mig == null ? null : mig.reason());
    }
}
