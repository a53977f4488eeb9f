package io.gpumeter.ledger.governance.domain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * DRIVER_VERSION of a node whose labels name no driver (no GFD): from the versions a data path saw on its cards, the
 * node's version being the one first seen last. One data path is read, nvidia-smi where it reports, else
 * dcgm-exporter, so that one upgrade is one change.
 */
final class SeenDriverChanges {

    static final String NVIDIA_SMI = "nvidia-smi";

    private SeenDriverChanges() {
    }

    static List<Change> derive(String node, String scope, List<SeenDriver> sightings) {
        List<SeenDriver> mine = sightings.stream().filter(s -> node.equals(s.node())).toList();
        boolean smi = mine.stream().anyMatch(s -> NVIDIA_SMI.equals(s.source()));
        List<SeenDriver> path = mine.stream().filter(s -> smi == NVIDIA_SMI.equals(s.source()))
                .sorted(Comparator.comparing(SeenDriver::firstSeen).thenComparing(SeenDriver::version)).toList();
        List<Change> out = new ArrayList<>();
        String current = null;
        for (SeenDriver s : path) {
            if (current != null && !Objects.equals(current, s.version())) {
                out.add(new Change(scope, node, s.firstSeen(), ChangeKind.DRIVER_VERSION, null, current, s.version(),
                        s.source()));
            }
            current = s.version();
        }
        return out;
    }
}
