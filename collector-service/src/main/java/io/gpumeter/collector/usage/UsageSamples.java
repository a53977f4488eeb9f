package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.ClockEventReason;
import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.fact.UsageScope;

import java.util.EnumSet;
import java.util.Set;

/** Turns parsed observations into the ledger's samples, deciding what each series measures. */
public final class UsageSamples {

    private static final Set<UsageField> PER_CONTAINER = EnumSet.of(UsageField.VGPU_MEMORY_USED_MIB,
            UsageField.VGPU_MEMORY_LIMIT_MIB, UsageField.VGPU_CORE_UTIL);
    /**
     * The whole card's memory health, clocks-event reasons and counters: a MIG instance's copy of these describes the
     * card, not the instance, and its copies fold into the card's one series (a second's first copy counts).
     */
    private static final Set<UsageField> CARD_WIDE = cardWide();

    private UsageSamples() {
    }

    /**
     * A MIG instance's series is that instance's; HAMi's per-container series are the container's share; a
     * process's series (nvidia-smi) is that process's share of the whole card; every other series describes the
     * whole card, even when the exporter stamped a pod on it. A memory-health, clocks-event or counter series is
     * always the card's; its copy on a MIG instance is stripped of the instance's pod, which is no sighting of that pod
     * on the whole card.
     */
    public static UsageSample of(UsageObservation o) {
        if (CARD_WIDE.contains(o.field()) && o.migInstanceId() != null) {
            return new UsageSample(o.gpuUuid(), o.node(), UsageScope.DEVICE, "", null, null, null, null, o.field(), o.value(),
                    o.at());
        }
        UsageScope scope;
        String key;
        if (o.pid() != null) {
            scope = UsageScope.PROCESS;
            key = processKey(o);
        } else if (PER_CONTAINER.contains(o.field())) {
            scope = UsageScope.CONTAINER;
            key = o.namespace() + "/" + o.pod() + "/" + (o.container() == null ? "" : o.container());
        } else if (o.migInstanceId() != null) {
            scope = UsageScope.MIG_INSTANCE;
            key = Integer.toString(o.migInstanceId());
        } else {
            scope = UsageScope.DEVICE;
            key = "";
        }
        return new UsageSample(o.gpuUuid(), o.node(), scope, key, o.migProfile(), o.namespace(), o.pod(), o.container(),
                o.field(), o.value(), o.at());
    }

    private static Set<UsageField> cardWide() {
        Set<UsageField> fields = EnumSet.of(UsageField.ROW_REMAP_FAILURE, UsageField.ROW_REMAP_PENDING,
                UsageField.UNCORRECTABLE_REMAPPED_ROWS, UsageField.ECC_DBE_VOLATILE, UsageField.RETIRED_PAGES_PENDING,
                UsageField.TOTAL_ENERGY_MJ, UsageField.POWER_VIOLATION_NS, UsageField.THERMAL_VIOLATION_NS);
        for (ClockEventReason reason : ClockEventReason.values()) {
            fields.add(reason.field());
        }
        return fields;
    }

    /**
     * The pid alone for a process nobody attributed; "namespace/pod/container/pid" for one the pusher named, so
     * the owner reads from the key as it does for a HAMi container ("namespace/pod/container").
     */
    static String processKey(UsageObservation o) {
        if (o.namespace() == null || o.pod() == null) {
            return Long.toString(o.pid());
        }
        return o.namespace() + "/" + o.pod() + "/" + (o.container() == null ? "" : o.container()) + "/" + o.pid();
    }
}
