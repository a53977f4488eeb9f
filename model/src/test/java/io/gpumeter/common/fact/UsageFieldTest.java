package io.gpumeter.common.fact;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class UsageFieldTest {

    /**
     * One minute's SM_ACTIVE, GR_ENGINE_ACTIVE and GPU_UTIL means ('-' where the minute has none) and the activity
     * read from them, by hand: the first measured of SM, GR, UTIL, a measured 0 included.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "all three: SM, though GR is higher | 0.30 | 0.70 | 0.90 | SM_ACTIVE        | 0.30",
            "no SM: GR                          | -    | 0.60 | 0.80 | GR_ENGINE_ACTIVE | 0.60",
            "GPU_UTIL alone                     | -    | -    | 0.50 | GPU_UTIL         | 0.50",
            "SM beside GPU_UTIL                 | 0.10 | -    | 0.95 | SM_ACTIVE        | 0.10",
            "an idle SM is measured, not absent | 0.00 | 0.40 | 1.00 | SM_ACTIVE        | 0.00",
            "an idle GR is measured too         | -    | 0.00 | 0.70 | GR_ENGINE_ACTIVE | 0.00",
            "SM and GR, no GPU_UTIL             | 0.20 | 0.20 | -    | SM_ACTIVE        | 0.20",
            "nothing measured                   | -    | -    | -    | -                | -",
    })
    void aMinutesActivityIsItsFinestMeasuredField(String name, Double sm, Double gr, Double util, UsageField field, Double value) {
        Map<UsageField, Double> minute = new EnumMap<>(UsageField.class);
        if (sm != null) {
            minute.put(UsageField.SM_ACTIVE, sm);
        }
        if (gr != null) {
            minute.put(UsageField.GR_ENGINE_ACTIVE, gr);
        }
        if (util != null) {
            minute.put(UsageField.GPU_UTIL, util);
        }
        minute.put(UsageField.DRAM_ACTIVE, 0.99); // never an activity field
        Optional<UsageField.Reading> read = UsageField.activity(minute::get);
        assertEquals(field == null ? Optional.empty() : Optional.of(new UsageField.Reading(field, value)), read);
    }

    @Test
    void activitiesAndClockReasonsAreRatiosAndGpuUtilIsOneToo() {
        for (UsageField f : UsageField.ACTIVITY) {
            assertEquals(UsageField.Unit.RATIO, f.unit(), f.name());
        }
        // the collector divides DCGM's and nvidia-smi's percent by 100: a chart scales it like the others
        assertEquals(UsageField.Unit.RATIO, UsageField.GPU_UTIL.unit());
        assertEquals(UsageField.Unit.RATIO, UsageField.VGPU_CORE_UTIL.unit());
        assertEquals(UsageField.Unit.RATIO, UsageField.CLOCKS_EVENT_HW_SLOWDOWN.unit());
        assertEquals(UsageField.Unit.MIB, UsageField.FB_USED_MIB.unit());
        assertEquals(UsageField.Unit.WATT, UsageField.POWER_W.unit());
        assertEquals(UsageField.Unit.CODE, UsageField.XID.unit());
        assertEquals(UsageField.Unit.MILLIJOULE, UsageField.TOTAL_ENERGY_MJ.unit());
        assertEquals(UsageField.Unit.JOULE, UsageField.ENERGY_J.unit());
    }
}
