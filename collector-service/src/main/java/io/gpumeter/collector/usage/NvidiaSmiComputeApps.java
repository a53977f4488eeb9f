package io.gpumeter.collector.usage;

import io.gpumeter.collector.usage.NvidiaSmiCsv.Column;
import io.gpumeter.collector.usage.NvidiaSmiCsv.Row;
import io.gpumeter.collector.usage.NvidiaSmiCsv.Table;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads {@code nvidia-smi --query-compute-apps=timestamp,gpu_uuid,pid,used_memory --format=csv[,nounits]}. */
public final class NvidiaSmiComputeApps {

    private static final Map<String, String> ALIASES = Map.of(
            "uuid", "gpu_uuid",
            "used_memory", "used_gpu_memory",
            "name", "process_name");

    private NvidiaSmiComputeApps() {
    }

    /** One record per row; a header alone (no process running) is an empty list. */
    public static List<ComputeApp> parse(String body, ZoneId zone) {
        Table table = NvidiaSmiCsv.read(body, ALIASES);
        if (table.column("gpu_utilization") != null || table.column("time") != null) {
            throw new UsageParseException(table.headerLine(), "this is --query-accounted-apps output (past"
                    + " processes); send --query-compute-apps");
        }
        Column uuid = NvidiaSmiCsv.require(table, "gpu_uuid", "add gpu_uuid to --query-compute-apps");
        Column pid = NvidiaSmiCsv.require(table, "pid", "add pid to --query-compute-apps");
        Column timestamp = NvidiaSmiCsv.require(table, "timestamp", "add timestamp to --query-compute-apps");
        Column memory = table.column("used_gpu_memory");
        if (memory != null) {
            NvidiaSmiCsv.requireUnit(table, memory, "MiB");
        }
        Column name = table.column("process_name");
        List<ComputeApp> apps = new ArrayList<>();
        for (Row row : table.rows()) {
            String gpu = NvidiaSmiCsv.text(row, uuid);
            String pidText = NvidiaSmiCsv.text(row, pid);
            Long processId = Decimals.integer(pidText);
            if (processId == null || processId <= 0 || pidText.startsWith("+")) {
                throw new UsageParseException(row.line(), "column pid: \"" + pidText + "\" is not a process id");
            }
            Long used = null;
            if (memory != null) {
                Double mib = NvidiaSmiCsv.number(row, memory, "MiB");
                if (mib != null && mib != Math.rint(mib)) {
                    throw new UsageParseException(row.line(), "column used_gpu_memory: " + mib
                            + " is not a whole number of MiB");
                }
                used = mib == null ? null : mib.longValue();
            }
            String process = name == null || NvidiaSmiCsv.missing(row.cell(name)) ? null : row.cell(name);
            apps.add(new ComputeApp(gpu, processId, used, process, NvidiaSmiCsv.timestamp(row, timestamp, zone)));
        }
        return List.copyOf(apps);
    }
}
