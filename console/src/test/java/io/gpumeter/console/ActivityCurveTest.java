package io.gpumeter.console;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pages draw activity minute by minute by the one rule: SM_ACTIVE, else GR_ENGINE_ACTIVE, else GPU_UTIL. */
class ActivityCurveTest {

    @Test
    void eachMinuteIsReadFromItsFinestMeasuredField() {
        ActivityCurve curve = new ActivityCurve()
                // 10:00 all three: SM's 0.30, though the engine reads 0.70
                .add("GPU_UTIL", "2026-11-30T10:00:00Z", 0.90).add("GR_ENGINE_ACTIVE", "2026-11-30T10:00:00Z", 0.70)
                .add("SM_ACTIVE", "2026-11-30T10:00:00Z", 0.30)
                // 10:01 no SM: the engine's 0.60
                .add("GR_ENGINE_ACTIVE", "2026-11-30T10:01:00Z", 0.60).add("GPU_UTIL", "2026-11-30T10:01:00Z", 0.80)
                // 10:02 GPU_UTIL alone: 0.50 (a ratio, as the collector stores it)
                .add("GPU_UTIL", "2026-11-30T10:02:00Z", 0.50)
                // 10:03 a field that is no activity: no minute
                .add("DRAM_ACTIVE", "2026-11-30T10:03:00Z", 0.99).add("SM_OCCUPANCY", "2026-11-30T10:03:00Z", 0.99);
        List<ActivityCurve.Point> points = curve.points();
        assertEquals(List.of("2026-11-30T10:00:00Z", "2026-11-30T10:01:00Z", "2026-11-30T10:02:00Z"),
                points.stream().map(ActivityCurve.Point::minute).toList());
        assertEquals(List.of(30.0, 60.0, 50.0), points.stream().map(ActivityCurve.Point::percent).toList());
        assertEquals("SM_ACTIVE/GR_ENGINE_ACTIVE/GPU_UTIL", curve.fields());
        // (0.30 + 0.60 + 0.50) / 3
        assertEquals(0.4666666, curve.mean().orElseThrow(), 1e-6);
        assertTrue(new ActivityCurve().add("POWER_W", "2026-11-30T10:00:00Z", 610).mean().isEmpty());
    }
}
