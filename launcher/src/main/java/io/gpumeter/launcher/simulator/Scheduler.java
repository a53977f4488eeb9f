package io.gpumeter.launcher.simulator;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Places pods on the fleet within capacity, first fit: a pod that does not fit when it asks waits until enough
 * holds end (queueing), and stays Pending if that never happens before the end of the history. A node binds no new
 * pod while it offers no GPUs (an outage); the pods it runs keep running, as the kubelet lets them.
 */
final class Scheduler {

    /** The scheduler reacts this long after capacity frees up. */
    private static final long REACTION_SECONDS = 2;

    private final List<SimNode> nodes;
    private final CapacityBook book = new CapacityBook();
    /** By node: when it takes no new GPU work (its device plugin down, its MIG layout not applied yet). */
    private final Map<String, List<StackHistory.Outage>> outages;

    Scheduler(List<SimNode> nodes, Map<String, List<StackHistory.Outage>> outages) {
        this.nodes = nodes;
        this.outages = outages;
        for (SimNode node : nodes) {
            for (SimGpu gpu : node.gpus()) {
                switch (node.pool()) {
                    case HAMI -> book.addUnit(gpu.uuid(), gpu.memoryMib(), 100, Fleet.HAMI_SPLIT_COUNT);
                    case WHOLE_CARD -> book.addUnit(gpu.uuid(), gpu.memoryMib(), 100, 1);
                    case MIG -> { }
                }
            }
            for (MigInstance instance : node.migInstances()) {
                book.addUnit(instance.uuid(), instance.profile().memoryMib(), 100, 1);
            }
        }
    }

    /**
     * Binds {@code story} at the earliest instant from {@code desired} on (and before {@code end}) where it fits.
     *
     * @param rotation which node of the pool to try first, so that vGPU work spreads over nodes
     * @return false when it never fits before the end
     */
    boolean place(PodStory story, Instant desired, Instant end, int rotation) {
        List<SimNode> pool = nodes.stream().filter(n -> n.pool() == story.template.pool).toList();
        List<SimNode> order = new ArrayList<>();
        for (int i = 0; i < pool.size(); i++) {
            order.add(pool.get((i + rotation) % pool.size()));
        }
        List<Instant> candidates = new ArrayList<>();
        candidates.add(desired);
        book.releasesAfter(unitKeys(pool), desired).forEach(r -> candidates.add(r.plusSeconds(REACTION_SECONDS)));
        // a node offering its GPUs again is a chance as much as a hold ending
        pool.forEach(n -> outages.getOrDefault(n.name(), List.of()).stream().map(StackHistory.Outage::to)
                .filter(to -> to.isAfter(desired)).forEach(to -> candidates.add(to.plusSeconds(REACTION_SECONDS))));
        candidates.sort(null);
        for (Instant at : candidates) {
            if (!at.isBefore(end)) {
                return false;
            }
            Instant until = at.plus(story.holdFor());
            for (SimNode node : order) {
                if (unavailable(node, at)) {
                    continue;
                }
                Optional<List<Grant>> grants = tryNode(story, node, at, until);
                if (grants.isPresent()) {
                    for (Grant g : grants.get()) {
                        book.reserve(key(g), at, until, g.memoryMib(), g.cores());
                    }
                    story.scheduledAt = at;
                    story.nodeName = node.name();
                    story.hostIp = node.hostIp();
                    story.podIp = NodeObjects.podCidr(node).replace(".0/24", "." + story.podHost);
                    story.grants.addAll(grants.get());
                    return true;
                }
            }
        }
        return false;
    }

    private boolean unavailable(SimNode node, Instant at) {
        return outages.getOrDefault(node.name(), List.of()).stream().anyMatch(o -> o.covers(at));
    }

    private Optional<List<Grant>> tryNode(PodStory story, SimNode node, Instant from, Instant to) {
        switch (node.pool()) {
            case HAMI -> {
                for (SimGpu gpu : node.gpus()) {
                    if (book.fits(gpu.uuid(), from, to, story.gpumem, story.gpucores)) {
                        return Optional.of(List.of(new Grant(gpu.uuid(), null, null, story.gpumem, story.gpucores)));
                    }
                }
            }
            case WHOLE_CARD -> {
                List<Grant> grants = new ArrayList<>();
                for (SimGpu gpu : node.gpus()) {
                    if (grants.size() < story.wholeCards && book.fits(gpu.uuid(), from, to, gpu.memoryMib(), 100)) {
                        grants.add(new Grant(gpu.uuid(), null, null, gpu.memoryMib(), 100));
                    }
                }
                if (grants.size() == story.wholeCards) {
                    return Optional.of(grants);
                }
            }
            case MIG -> {
                for (MigInstance instance : node.migInstances()) {
                    if (instance.profile() == story.migProfile
                            && book.fits(instance.uuid(), from, to, instance.profile().memoryMib(), 100)) {
                        return Optional.of(List.of(new Grant(instance.gpuUuid(), instance.profile(), instance.uuid(),
                                instance.profile().memoryMib(), 100 * instance.profile().slices() / 7)));
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static String key(Grant grant) {
        return grant.migUuid() != null ? grant.migUuid() : grant.gpuUuid();
    }

    private static List<String> unitKeys(List<SimNode> pool) {
        List<String> keys = new ArrayList<>();
        for (SimNode node : pool) {
            if (node.pool() == GpuPool.MIG) {
                node.migInstances().forEach(i -> keys.add(i.uuid()));
            } else {
                node.gpus().forEach(g -> keys.add(g.uuid()));
            }
        }
        return keys;
    }
}
