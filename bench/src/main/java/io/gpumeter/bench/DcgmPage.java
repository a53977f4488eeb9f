package io.gpumeter.bench;

/**
 * The page one node's dcgm-exporter serves as the GPU Operator installs it: the series of its default counters file
 * (dcgm-exporter's {@code dcp-metrics-included.csv}) plus the profiling counters a platform enables for SM-level
 * activity and NVLink, every series labelled with the card and the pod that holds it (the exporter's Kubernetes
 * pod-resources mapping), as a real scrape shows them. Values differ from card to card and series to series.
 */
final class DcgmPage {

    /** GPUs per node, as on the 8-card servers of large fleets. */
    static final int GPUS_PER_NODE = 8;

    /** Name, type and help of each series, in the exporter's order. */
    private static final String[][] SERIES = {
            {"DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz)."},
            {"DCGM_FI_DEV_MEM_CLOCK", "gauge", "Memory clock frequency (in MHz)."},
            {"DCGM_FI_DEV_MEMORY_TEMP", "gauge", "Memory temperature (in C)."},
            {"DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C)."},
            {"DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W)."},
            {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter", "Total energy consumption since boot (in mJ)."},
            {"DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "counter", "Total number of PCIe retries."},
            {"DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %)."},
            {"DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %)."},
            {"DCGM_FI_DEV_ENC_UTIL", "gauge", "Encoder utilization (in %)."},
            {"DCGM_FI_DEV_DEC_UTIL", "gauge", "Decoder utilization (in %)."},
            {"DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered."},
            {"DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB)."},
            {"DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB)."},
            {"DCGM_FI_DEV_FB_RESERVED", "gauge", "Framebuffer memory reserved (in MiB)."},
            {"DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", "counter", "Total number of NVLink bandwidth counters for all lanes."},
            {"DCGM_FI_DEV_VGPU_LICENSE_STATUS", "gauge", "vGPU License status"},
            {"DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "counter", "Number of remapped rows for uncorrectable errors"},
            {"DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "counter", "Number of remapped rows for correctable errors"},
            {"DCGM_FI_DEV_ROW_REMAP_FAILURE", "gauge", "Whether remapping of rows has failed"},
            {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gauge", "Ratio of time the graphics engine is active."},
            {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "gauge", "Ratio of cycles the tensor (HMMA) pipe is active."},
            {"DCGM_FI_PROF_DRAM_ACTIVE", "gauge", "Ratio of cycles the device memory interface is active sending or receiving data."},
            {"DCGM_FI_PROF_PCIE_TX_BYTES", "gauge", "The rate of data transmitted over the PCIe bus in bytes per second."},
            {"DCGM_FI_PROF_PCIE_RX_BYTES", "gauge", "The rate of data received over the PCIe bus in bytes per second."},
            // the profiling counters beyond the defaults
            {"DCGM_FI_PROF_SM_ACTIVE", "gauge", "The ratio of cycles an SM has at least 1 warp assigned."},
            {"DCGM_FI_PROF_SM_OCCUPANCY", "gauge", "The ratio of number of warps resident on an SM."},
            {"DCGM_FI_PROF_PIPE_FP64_ACTIVE", "gauge", "Ratio of cycles the fp64 pipes are active."},
            {"DCGM_FI_PROF_PIPE_FP32_ACTIVE", "gauge", "Ratio of cycles the fp32 pipes are active."},
            {"DCGM_FI_PROF_PIPE_FP16_ACTIVE", "gauge", "Ratio of cycles the fp16 pipes are active."},
            {"DCGM_FI_PROF_NVLINK_TX_BYTES", "gauge", "The rate of data transmitted over NVLink in bytes per second."},
            {"DCGM_FI_PROF_NVLINK_RX_BYTES", "gauge", "The rate of data received over NVLink in bytes per second."},
    };

    private DcgmPage() {
    }

    /** Series per card on the page. */
    static int seriesPerGpu() {
        return SERIES.length;
    }

    /** The card's UUID, unique in the fleet. */
    static String uuid(int node, int gpu) {
        return String.format("GPU-%08x-bench-4e00-8000-%012d", node, gpu);
    }

    static String nodeName(int node) {
        return "bench-node-" + node;
    }

    /** Node {@code node}'s page at its {@code round}-th scrape. */
    static String render(int node, long round) {
        String host = nodeName(node);
        StringBuilder page = new StringBuilder(SERIES.length * GPUS_PER_NODE * 420);
        for (int s = 0; s < SERIES.length; s++) {
            String[] series = SERIES[s];
            page.append("# HELP ").append(series[0]).append(' ').append(series[2]).append('\n')
                    .append("# TYPE ").append(series[0]).append(' ').append(series[1]).append('\n');
            for (int g = 0; g < GPUS_PER_NODE; g++) {
                page.append(series[0]).append("{gpu=\"").append(g).append("\",UUID=\"").append(uuid(node, g))
                        .append("\",pci_bus_id=\"00000000:").append(String.format("%02X", 0x18 + g * 8))
                        .append(":00.0\",device=\"nvidia").append(g).append("\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"")
                        .append(host).append("\",DCGM_FI_DRIVER_VERSION=\"580.95.05\",container=\"trainer\",namespace=\"team-")
                        .append((node + g) % 40).append("\",pod=\"train-").append(node).append('-').append(g)
                        .append("-7d9f8\",pod_uid=\"\"} ");
                appendValue(page, series, s, node * GPUS_PER_NODE + g, round);
                page.append('\n');
            }
        }
        return page.toString();
    }

    private static void appendValue(StringBuilder page, String[] series, int s, int card, long round) {
        String name = series[0];
        long wave = (card * 7L + round * 3 + s) % 100;
        if ("counter".equals(series[1])) {
            page.append(name.endsWith("ENERGY_CONSUMPTION") ? 1_000_000_000L + round * 4_000_000L : round / 50);
        } else if (name.startsWith("DCGM_FI_PROF_")) {
            page.append(wave / 100.0);
        } else if (name.endsWith("XID_ERRORS") || name.endsWith("ROW_REMAP_FAILURE") || name.endsWith("LICENSE_STATUS")) {
            page.append(0);
        } else {
            page.append(wave);
        }
    }
}
