package io.gpumeter.ledger.inventory.domain;

import io.gpumeter.common.fact.RegisteredGpu;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the inventory knows of one node's GPUs: GPU-feature-discovery labels and HAMi's device registration.
 * Physical memory from the labels wins over HAMi's registered memory, which may be scaled.
 */
public record NodeInventory(String name, Map<String, String> labels, List<RegisteredGpu> gpus) {

    public static final String PRODUCT = "nvidia.com/gpu.product";
    public static final String MEMORY = "nvidia.com/gpu.memory";
    public static final String REPLICAS = "nvidia.com/gpu.replicas";
    public static final String SHARING_STRATEGY = "nvidia.com/gpu.sharing-strategy";
    public static final String MIG_STRATEGY = "nvidia.com/mig.strategy";

    public NodeInventory {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
    }

    /** The card model, without the MIG suffix GPU-feature-discovery adds under the single strategy. */
    public String model() {
        String product = labels.get(PRODUCT);
        if (product != null && !product.isBlank()) {
            int mig = product.indexOf("-MIG-");
            return mig > 0 ? product.substring(0, mig) : product;
        }
        return gpus.stream().map(RegisteredGpu::model).filter(m -> m != null && !m.isBlank()).findFirst().orElse(null);
    }

    public String modelOf(String uuid) {
        return registered(uuid).map(RegisteredGpu::model).filter(m -> !m.isBlank()).orElseGet(this::model);
    }

    /** Physical memory of a card: the node label when present, else what HAMi registered for it. */
    public Long cardMemoryMib(String uuid) {
        Long physical = parseLong(labels.get(MEMORY));
        if (physical != null && physical > 0) {
            return physical;
        }
        return registered(uuid).map(RegisteredGpu::memoryMib).filter(m -> m > 0).orElse(null);
    }

    /** Replicas per card under time-slicing or MPS; 1 when the card is not shared that way. */
    public int replicas() {
        String strategy = labels.getOrDefault(SHARING_STRATEGY, "");
        Long replicas = parseLong(labels.get(REPLICAS));
        if (replicas == null || replicas < 1 || "none".equalsIgnoreCase(strategy)) {
            return 1;
        }
        return replicas.intValue();
    }

    /** The MIG profile every nvidia.com/gpu unit is, when the node runs MIG strategy single. */
    public Optional<MigProfile> singleStrategyProfile() {
        if (!"single".equalsIgnoreCase(labels.getOrDefault(MIG_STRATEGY, ""))) {
            return Optional.empty();
        }
        try {
            return MigProfile.fromProductLabel(labels.get(PRODUCT));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    public boolean hasGpu(String uuid) {
        return registered(uuid).isPresent();
    }

    private Optional<RegisteredGpu> registered(String uuid) {
        return uuid == null ? Optional.empty() : gpus.stream().filter(g -> uuid.equals(g.uuid())).findFirst();
    }

    private static Long parseLong(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
