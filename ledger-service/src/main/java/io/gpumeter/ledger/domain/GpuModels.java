package io.gpumeter.ledger.domain;

import java.util.Locale;

/** GPU model names as one spelling, so `NVIDIA-H100-80GB-HBM3` and `NVIDIA H100 80GB HBM3` are one model. */
public final class GpuModels {

    private GpuModels() {
    }

    public static String canonical(String model) {
        if (model == null || model.isBlank()) {
            return null;
        }
        return model.trim().replaceAll("[-_\\s]+", " ").toUpperCase(Locale.ROOT);
    }
}
