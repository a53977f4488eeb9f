package io.gpumeter.ledger.dra.domain;

import io.gpumeter.common.fact.DraDevice;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.common.fact.WatchEventType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The physical cards NVIDIA's DRA driver publishes in a node's ResourceSlices, for the inventory: a device of
 * {@code type} gpu is a card (its {@code uuid}, {@code productName} and {@code memory} capacity); a device of type
 * mig names its card by {@code parentUUID} and makes it a MIG card. An A100 in MIG mode publishes only its MIG
 * devices, so such a card is known from them alone and its memory stays unknown. Slices of an older generation of
 * their pool are outdated and ignored, as are deleted slices and other drivers' devices.
 */
public final class DraCards {

    /** One card: its node, UUID, model, memory in MiB (null when unpublished) and whether it runs MIG. */
    public record Card(String node, String uuid, String model, Long memoryMib, boolean mig) {
    }

    private static final BigDecimal MIB = BigDecimal.valueOf(1024L * 1024);

    private DraCards() {
    }

    /** The cards of the current slices, in slice and device order, each once. */
    public static List<Card> of(List<ResourceSliceFact> slices) {
        Map<String, Long> newestGeneration = new HashMap<>();
        for (ResourceSliceFact s : slices) {
            if (s.type() != WatchEventType.DELETED) {
                newestGeneration.merge(s.driver() + "\u0000" + s.pool(), s.poolGeneration(), Math::max);
            }
        }
        Map<String, Card> cards = new LinkedHashMap<>();
        slices.stream()
                .filter(s -> s.type() != WatchEventType.DELETED && DraPlanner.NVIDIA_GPU_DRIVER.equals(s.driver())
                        && s.nodeName() != null && !s.nodeName().isBlank()
                        && s.poolGeneration() == newestGeneration.get(s.driver() + "\u0000" + s.pool()))
                .sorted(Comparator.comparing(ResourceSliceFact::nodeName))
                .forEach(s -> s.devices().forEach(d -> add(cards, s, d)));
        return new ArrayList<>(cards.values());
    }

    /** The cards of each node. */
    public static Map<String, List<Card>> byNode(List<ResourceSliceFact> slices) {
        Map<String, List<Card>> out = new LinkedHashMap<>();
        of(slices).forEach(c -> out.computeIfAbsent(c.node(), k -> new ArrayList<>()).add(c));
        return out;
    }

    private static void add(Map<String, Card> cards, ResourceSliceFact slice, DraDevice device) {
        String type = DraPlanner.attribute(device, slice.driver(), "type");
        String model = DraPlanner.attribute(device, slice.driver(), "productName");
        if ("gpu".equals(type)) {
            String uuid = DraPlanner.attribute(device, slice.driver(), "uuid");
            if (uuid == null || uuid.isBlank()) {
                return;
            }
            Card known = cards.get(uuid);
            cards.put(uuid, new Card(slice.nodeName(), uuid, model, mebibytes(device.capacity().get("memory")),
                    known != null && known.mig()));
        } else if ("mig".equals(type)) {
            String parent = DraPlanner.attribute(device, slice.driver(), "parentUUID");
            if (parent == null || parent.isBlank()) {
                return;
            }
            Card known = cards.get(parent);
            cards.put(parent, known == null ? new Card(slice.nodeName(), parent, model, null, true)
                    : new Card(known.node(), parent, known.model() == null ? model : known.model(), known.memoryMib(), true));
        }
    }

    /**
     * A Kubernetes quantity of bytes ("80Gi", "40192Mi", "85899345920", "80G") in whole MiB; null when absent or
     * unreadable.
     */
    static Long mebibytes(String quantity) {
        if (quantity == null || quantity.isBlank()) {
            return null;
        }
        String q = quantity.strip();
        String[][] suffixes = {{"Ki", "1024"}, {"Mi", "1048576"}, {"Gi", "1073741824"}, {"Ti", "1099511627776"},
                {"k", "1000"}, {"M", "1000000"}, {"G", "1000000000"}, {"T", "1000000000000"}};
        BigDecimal factor = BigDecimal.ONE;
        for (String[] s : suffixes) {
            if (q.endsWith(s[0])) {
                factor = new BigDecimal(s[1]);
                q = q.substring(0, q.length() - s[0].length());
                break;
            }
        }
        try {
            BigDecimal bytes = new BigDecimal(q).multiply(factor);
            return bytes.signum() < 0 ? null : bytes.divide(MIB, 0, RoundingMode.DOWN).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            return null;
        }
    }
}
