package io.gpumeter.ledger.fragmentation.domain;

import io.gpumeter.ledger.inventory.domain.MigProfile;

import java.util.Optional;

/**
 * What the held units take of one card, and whether another unit fits beside them: a whole card only an untouched
 * one, a time-slice replica a card with a replica left, a vGPU a card with its memory, cores and a slot free, a MIG
 * instance a MIG card with room for its profile.
 */
final class CardRoom {

    final ProbeCard card;
    boolean whole;
    int shared;
    int vgpus;
    long memory;
    int cores;
    int migInstances;
    int migSlices;

    CardRoom(ProbeCard card) {
        this.card = card;
    }

    CardRoom copy() {
        CardRoom c = new CardRoom(card);
        c.whole = whole;
        c.shared = shared;
        c.vgpus = vgpus;
        c.memory = memory;
        c.cores = cores;
        c.migInstances = migInstances;
        c.migSlices = migSlices;
        return c;
    }

    boolean untouched() {
        return !whole && shared == 0 && vgpus == 0 && migInstances == 0;
    }

    boolean canHold(HeldUnit u) {
        boolean mig = card.mig() != null;
        return switch (u.kind()) {
            case WHOLE -> !mig && untouched();
            case SHARED -> !mig && !whole && vgpus == 0 && shared < Math.max(1, card.replicas());
            case VGPU -> !mig && !whole && shared == 0 && card.memoryMib() - memory >= u.memoryMib()
                    && (u.cores() == 0 || cores + u.cores() <= card.cores())
                    && (card.slots() == 0 || vgpus < card.slots());
            case MIG -> mig && profile(u).map(p -> migRoom(p)).orElse(false);
        };
    }

    private boolean migRoom(MigProfile p) {
        ProbeCard.MigLayout layout = card.mig();
        if (whole || shared > 0 || vgpus > 0) {
            return false;
        }
        if (layout.fixed() != null) {
            return FragmentationProbe.fitsIn(p, layout.fixed())
                    && migInstances < layout.slices() / layout.fixed().gpuInstanceSlices();
        }
        return migSlices + p.gpuInstanceSlices() <= layout.slices();
    }

    void hold(HeldUnit u) {
        switch (u.kind()) {
            case WHOLE -> whole = true;
            case SHARED -> shared++;
            case VGPU -> {
                vgpus++;
                memory += u.memoryMib();
                cores += u.cores();
            }
            case MIG -> {
                migInstances++;
                migSlices += profile(u).map(MigProfile::gpuInstanceSlices).orElse(1);
            }
        }
    }

    private static Optional<MigProfile> profile(HeldUnit u) {
        try {
            return u.migProfile() == null ? Optional.empty() : Optional.of(MigProfile.parse(u.migProfile()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
