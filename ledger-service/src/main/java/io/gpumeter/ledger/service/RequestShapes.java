package io.gpumeter.ledger.service;

import io.gpumeter.ledger.allocation.domain.UnitKind;
import io.gpumeter.ledger.dra.domain.DraPlanner;
import io.gpumeter.ledger.fragmentation.domain.HeldUnit;
import io.gpumeter.ledger.fragmentation.domain.ProbeCard;
import io.gpumeter.ledger.governance.domain.GpuLabels;
import io.gpumeter.ledger.inventory.domain.MigProfile;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The request shapes a card offers, each as the unit one such request holds, for the fragmentation probe to tell how
 * many fit ({@code FragmentationProbe.rooms}):
 * <ul>
 * <li>{@code whole} — a card the device plugin serves whole: one whole-card unit, or on a time-sliced (MPS) card one
 * replica each, as the device plugin hands out {@code nvidia.com/gpu} there;</li>
 * <li>{@code hami} — a card HAMi registers for more than one task: an even share each, its memory and cores divided
 * by the tasks the registration allows (so units when empty = that split count);</li>
 * <li>{@code mig-<profile>} — a MIG card: an instance of each profile its node's layout offers — the node's single
 * strategy profile, else the MIG devices GPU feature discovery counts on it, else the fragmentation read's
 * configured profiles — as many as its slices hold;</li>
 * <li>{@code dra:gpu.nvidia.com} — a card only NVIDIA's DRA driver publishes: one whole device, which ResourceClaims
 * reach through the driver's device classes (named by the driver: the ledger does not evaluate device class
 * selectors).</li>
 * </ul>
 */
final class RequestShapes {

    /** The shape families of the supply read. */
    enum Kind {
        WHOLE, MIG, HAMI, DRA
    }

    /** A shape's name in the answer and its family. */
    record Shape(String name, Kind kind) {
    }

    static final String WHOLE = "whole";
    static final String HAMI = "hami";
    static final String MIG = "mig-";
    static final String DRA = "dra:" + DraPlanner.NVIDIA_GPU_DRIVER;
    private static final String MIG_RESOURCE = "nvidia.com/mig-";

    private final List<MigProfile> configured;

    RequestShapes(List<MigProfile> configured) {
        this.configured = List.copyOf(configured);
    }

    /** One unit of each request the card offers, on a node with these labels. */
    List<HeldUnit> requests(ProbeCard card, Map<String, String> nodeLabels) {
        List<HeldUnit> out = new ArrayList<>();
        if (card.mig() != null) {
            List<MigProfile> profiles = card.mig().fixed() != null ? List.of(card.mig().fixed()) : layout(nodeLabels);
            profiles.forEach(p -> out.add(unit(card, UnitKind.MIG, p.raw(), 0, 0)));
            return out;
        }
        if (card.origin() == ProbeCard.Origin.PUBLISHED) {
            return List.of(unit(card, UnitKind.WHOLE, null, 0, 0));
        }
        out.add(unit(card, card.replicas() > 1 ? UnitKind.SHARED : UnitKind.WHOLE, null, 0, 0));
        if (card.origin() == ProbeCard.Origin.REGISTERED && card.slots() > 1) {
            out.add(unit(card, UnitKind.VGPU, null, card.cores() / card.slots(), card.memoryMib() / card.slots()));
        }
        return out;
    }

    /** The shape a request of {@link #requests} stands for. */
    static Shape shape(ProbeCard card, HeldUnit request) {
        return switch (request.kind()) {
            case MIG -> new Shape(MIG + request.migProfile(), Kind.MIG);
            case VGPU -> new Shape(HAMI, Kind.HAMI);
            case WHOLE, SHARED -> card.origin() == ProbeCard.Origin.PUBLISHED ? new Shape(DRA, Kind.DRA)
                    : new Shape(WHOLE, Kind.WHOLE);
        };
    }

    /** The profiles GPU feature discovery counts on the node (mixed strategy), else the configured ones. */
    private List<MigProfile> layout(Map<String, String> labels) {
        List<MigProfile> out = new ArrayList<>();
        for (String name : GpuLabels.migCounts(labels).keySet()) {
            try {
                MigProfile.fromResourceName(MIG_RESOURCE + name).ifPresent(p -> {
                    if (out.stream().noneMatch(q -> q.raw().equals(p.raw()))) {
                        out.add(p);
                    }
                });
            } catch (IllegalArgumentException e) {
                // a count label of no profile the grammar reads offers nothing a request could name
            }
        }
        return out.isEmpty() ? configured : out;
    }

    private static HeldUnit unit(ProbeCard card, UnitKind kind, String profile, int cores, long memoryMib) {
        return new HeldUnit(card.cluster(), card.node(), card.uuid(), kind, profile, cores, memoryMib);
    }
}
