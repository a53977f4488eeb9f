package io.gpumeter.bench;

import java.time.Instant;

/**
 * One page holding every GPU's ten usage fields at one instant, as a federating exporter would serve it: the pushes
 * the host and size benchmarks send through the collector's dcgm-exporter intake.
 */
final class FederatedScrape {

    static final String[] FIELDS = {"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_PROF_SM_ACTIVE",
            "DCGM_FI_PROF_SM_OCCUPANCY", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "DCGM_FI_PROF_DRAM_ACTIVE", "DCGM_FI_DEV_FB_USED",
            "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_SM_CLOCK"};

    private FederatedScrape() {
    }

    /** One scrape of every GPU at one instant, as a federating exporter would serve it. */
    static String scrape(int gpus, Instant at) {
        StringBuilder body = new StringBuilder(gpus * FIELDS.length * 90);
        long ms = at.toEpochMilli();
        for (String field : FIELDS) {
            for (int g = 0; g < gpus; g++) {
                double value = field.contains("PROF") ? ((g * 7 + ms / 1000) % 100) / 100.0 : (g * 13 + ms / 1000) % 100;
                body.append(field).append("{gpu=\"").append(g % 8).append("\",UUID=\"GPU-bench-").append(g)
                        .append("\",Hostname=\"node-").append(g / 8).append("\"} ").append(value).append(' ').append(ms).append('\n');
            }
        }
        return body.toString();
    }

}
