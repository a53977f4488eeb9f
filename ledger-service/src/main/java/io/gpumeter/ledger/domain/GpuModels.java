package io.gpumeter.ledger.domain;

import java.util.Locale;
import java.util.regex.Pattern;

/** GPU model names as one spelling, so `NVIDIA-H100-80GB-HBM3` and `NVIDIA H100 80GB HBM3` are one model. */
public final class GpuModels {

    /** Runs of dashes, underscores and spaces, which spellings of one model use interchangeably. */
    private static final Pattern SEPARATORS = Pattern.compile("[-_\\s]+");

    private GpuModels() {
    }

    public static String canonical(String model) {
        if (model == null || model.isBlank()) {
            return null;
        }
        return SEPARATORS.matcher(model.trim()).replaceAll(" ").toUpperCase(Locale.ROOT);
    }
}
