package io.gpumeter.collector.governance;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Recognises container log lines that signal a GPU failure; the signal names are the ledger's failure causes.
 * First match wins, so the more specific driver-version message is tried before the general device one.
 */
public final class LogSignals {

    private static final Map<String, Pattern> SIGNALS = new LinkedHashMap<>();

    static {
        SIGNALS.put("cuda-oom", Pattern.compile(
                "CUDA out of memory|CUDA error: out of memory|cudaErrorMemoryAllocation|OutOfMemoryError: CUDA|CUBLAS_STATUS_ALLOC_FAILED"));
        SIGNALS.put("cuda-driver-mismatch", Pattern.compile(
                "CUDA driver version is insufficient|cudaErrorInsufficientDriver|forward compatibility was attempted on non supported HW"));
        SIGNALS.put("gpu-invisible", Pattern.compile(
                "no CUDA-capable device is detected|cudaErrorNoDevice|Found no NVIDIA driver on your system"
                        + "|couldn't communicate with the NVIDIA driver|libcuda\\.so(\\.1)?: cannot open shared object file"
                        + "|CUDA driver initialization failed|CUDA_ERROR_NO_DEVICE"));
        SIGNALS.put("nccl-hang", Pattern.compile(
                "Watchdog caught collective operation timeout|NCCL (?:WARN|INFO).*[Tt]imeout|ProcessGroupNCCL.*[Tt]imed? ?out"
                        + "|NCCL communicator was aborted|ncclRemoteError|NCCL watchdog thread terminated"));
    }

    private LogSignals() {
    }

    /** The signal the line carries, or null. */
    public static String classify(String line) {
        for (Map.Entry<String, Pattern> s : SIGNALS.entrySet()) {
            if (s.getValue().matcher(line).find()) {
                return s.getKey();
            }
        }
        return null;
    }
}
