package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.PendingReason;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PendingReasonTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100, 2 more needed | QUOTA",
            "couldn't assign flavors to pod set main: insufficient quota for nvidia.com/gpu in flavor a100, request > maximum capacity (8 > 4) | QUOTA",
            "couldn't assign flavors to pod set main: flavor a100 doesn't match node affinity | FLAVOR",
            "couldn't assign flavors to pod set main: resource nvidia.com/gpu unavailable in ClusterQueue | FLAVOR",
            "3/3 tasks in gang unschedulable: pod group is not ready, 3 Pending, 3 minAvailable; Pending: 3 Undetermined | GANG",
            "0/4 nodes are available: 2 node(s) had untolerated taint {nvidia.com/gpu: NoSchedule}, 2 node(s) didn't match Pod's node affinity/selector. | AFFINITY_OR_TAINT",
            "0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found | INSUFFICIENT_RESOURCES",
            "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0 | NO_DEVICE",
            "The workload is deactivated due to Admission check(s): [capacity-check], were rejected | ADMISSION_CHECK",
            "The workload is deactivated | INACTIVE",
            "ClusterQueue gpu-research is inactive | INACTIVE",
            "- | OTHER",
            "something nobody expected | OTHER",
    })
    void classifies(String message, PendingReason expected) {
        assertEquals(expected, PendingReason.classify(message));
    }
}
