package io.gpumeter.alert.config;

import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Set;

/** Thresholds of the semantic rules (gpumeter.alert.rules.*). */
public interface RulesConfig {

    DriverXid driverXid();

    Missing missing();

    Oom oom();

    Idle idle();

    Bandwidth bandwidth();

    Latency latency();

    Violations violations();

    Budget budget();

    /** GpuDriverXid. */
    interface DriverXid {
        /** A new Xid fires for this long after it appears. */
        @WithDefault("30m")
        Duration window();

        /** Application Xids: the workload's own fault, not the driver's. */
        @WithDefault("13,31,43,45,68,69")
        Set<Integer> ignoredCodes();
    }

    /** GpuMissing. */
    interface Missing {
        /** How long an occupied card must be silent. */
        @WithDefault("5m")
        Duration silence();

        /** How recent a neighbour card's newest minute must be to show that the node still reports. */
        @WithDefault("3m")
        Duration fresh();
    }

    /** GpuWorkloadOom. */
    interface Oom {
        /** Window in which failures are counted. */
        @WithDefault("30m")
        Duration window();

        /** Failures of one namespace on one node in the window that fire. */
        @WithDefault("1")
        int minCount();
    }

    /** GpuAllocationIdle. */
    interface Idle {
        /** Activity (0..1) under which a minute is idle. */
        @WithDefault("0.05")
        double threshold();

        /** How long the unit must have been held and idle. */
        @WithDefault("2h")
        Duration duration();

        /** Share of the minutes that must have been measured. */
        @WithDefault("0.8")
        double minCoverage();
    }

    /** GpuDramBandwidthSaturated. */
    interface Bandwidth {
        /** DRAM_ACTIVE (0..1) above which a minute is saturated. */
        @WithDefault("0.85")
        double threshold();

        /** How long it must stay saturated. */
        @WithName("for")
        @WithDefault("5m")
        Duration forDuration();

        /** How old the newest saturated minute may be. */
        @WithDefault("3m")
        Duration fresh();

        /** Regular expression of the namespaces that serve inference. */
        @WithDefault(".*")
        String inferenceNamespaces();
    }

    /** InferenceLatencyP99High. */
    interface Latency {
        /** Consecutive windows over the line that fire. */
        @WithDefault("3")
        int consecutiveWindows();

        /** How far back slo-service is asked for windows. */
        @WithDefault("30m")
        Duration lookback();
    }

    /** GpuQuotaHardViolation and HamiLedgerDrift. */
    interface Violations {
        /** An episode that ended this recently still fires. */
        @WithDefault("10m")
        Duration recent();

        /** How far back the ledger is asked for episodes. */
        @WithDefault("2h")
        Duration lookback();
    }

    /** BudgetForecastOverrun. */
    interface Budget {
        /** Share above the budget the forecast may reach without firing (0.05 = 5%). */
        @WithDefault("0")
        BigDecimal tolerance();

        /** Share of the month that must have passed before a forecast alone fires (spending the budget always does). */
        @WithDefault("0.1")
        BigDecimal minElapsed();
    }
}
