package io.gpumeter.ledger.governance.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What GPU feature discovery and the MIG manager say on a node's labels: the driver and CUDA versions (the labels of
 * GFD before and after its {@code cuda.driver-version} naming), the product, the card count and the MIG layout.
 */
public final class GpuLabels {

    public static final String DOMAIN = "nvidia.com/";
    public static final String PRODUCT = "nvidia.com/gpu.product";
    public static final String COUNT = "nvidia.com/gpu.count";
    public static final String MIG_CONFIG = NodeIncidents.MIG_CONFIG;
    public static final String MIG_CONFIG_STATE = NodeIncidents.MIG_CONFIG_STATE;

    private static final List<String> DRIVER_FULL = List.of("nvidia.com/cuda.driver-version.full");
    private static final List<String> DRIVER_PARTS = List.of("nvidia.com/cuda.driver.major",
            "nvidia.com/cuda.driver.minor", "nvidia.com/cuda.driver.rev");
    private static final List<String> DRIVER_PARTS_NEW = List.of("nvidia.com/cuda.driver-version.major",
            "nvidia.com/cuda.driver-version.minor", "nvidia.com/cuda.driver-version.revision");
    private static final List<String> CUDA_FULL = List.of("nvidia.com/cuda.runtime-version.full");
    private static final List<String> CUDA_PARTS = List.of("nvidia.com/cuda.runtime.major", "nvidia.com/cuda.runtime.minor");
    private static final List<String> CUDA_PARTS_NEW = List.of("nvidia.com/cuda.runtime-version.major",
            "nvidia.com/cuda.runtime-version.minor");
    private static final Pattern MIG_COUNT = Pattern.compile("nvidia\\.com/mig-[^/]+\\.count");

    /** The labels a driver, CUDA or MIG layout change stands for, which are not also reported one by one. */
    static final Set<String> DRIVER_KEYS = keys(DRIVER_FULL, DRIVER_PARTS, DRIVER_PARTS_NEW);
    static final Set<String> CUDA_KEYS = keys(CUDA_FULL, CUDA_PARTS, CUDA_PARTS_NEW);

    private GpuLabels() {
    }

    /** The driver version, e.g. 550.54.15; null where GFD says nothing of it. */
    public static String driverVersion(Map<String, String> labels) {
        return version(labels, DRIVER_FULL.get(0), DRIVER_PARTS_NEW, DRIVER_PARTS);
    }

    /** The CUDA version the driver offers, e.g. 12.4; null where GFD says nothing of it. */
    public static String cudaVersion(Map<String, String> labels) {
        return version(labels, CUDA_FULL.get(0), CUDA_PARTS_NEW, CUDA_PARTS);
    }

    /**
     * The MIG layout: the MIG manager's desired configuration where the node names one, else the MIG devices GFD
     * counts ({@code 7x1g.10gb+…}), else null.
     */
    public static String migLayout(Map<String, String> labels) {
        String config = labels.get(MIG_CONFIG);
        if (config != null) {
            return config;
        }
        Map<String, String> counts = migCounts(labels);
        if (counts.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((profile, count) -> parts.add(count + "x" + profile));
        return String.join("+", parts);
    }

    /** Whether a label is part of the MIG layout (its configuration or a device count). */
    static boolean migKey(String key) {
        return MIG_CONFIG.equals(key) || MIG_COUNT.matcher(key).matches();
    }

    /** The MIG device counts GFD labels, by profile. */
    public static Map<String, String> migCounts(Map<String, String> labels) {
        Map<String, String> counts = new TreeMap<>();
        labels.forEach((k, value) -> {
            if (MIG_COUNT.matcher(k).matches()) {
                counts.put(k.substring("nvidia.com/mig-".length(), k.length() - ".count".length()), value);
            }
        });
        return counts;
    }

    private static String version(Map<String, String> labels, String full, List<String> parts, List<String> oldParts) {
        String whole = labels.get(full);
        if (whole != null && !whole.isBlank()) {
            return whole;
        }
        String joined = joined(labels, parts);
        return joined != null ? joined : joined(labels, oldParts);
    }

    private static String joined(Map<String, String> labels, List<String> parts) {
        if (labels.get(parts.get(0)) == null) {
            return null;
        }
        List<String> present = new ArrayList<>();
        for (String part : parts) {
            String v = labels.get(part);
            if (v == null) {
                break;
            }
            present.add(v);
        }
        return String.join(".", present);
    }

    @SafeVarargs
    private static Set<String> keys(List<String>... lists) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (List<String> l : lists) {
            out.addAll(l);
        }
        return Set.copyOf(out);
    }
}
