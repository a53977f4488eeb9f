package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.ClockEventReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.gpumeter.common.fact.ClockEventReason.APPLICATIONS_CLOCKS_SETTING;
import static io.gpumeter.common.fact.ClockEventReason.DISPLAY_CLOCK_SETTING;
import static io.gpumeter.common.fact.ClockEventReason.GPU_IDLE;
import static io.gpumeter.common.fact.ClockEventReason.HW_POWER_BRAKE_SLOWDOWN;
import static io.gpumeter.common.fact.ClockEventReason.HW_SLOWDOWN;
import static io.gpumeter.common.fact.ClockEventReason.HW_THERMAL_SLOWDOWN;
import static io.gpumeter.common.fact.ClockEventReason.SW_POWER_CAP;
import static io.gpumeter.common.fact.ClockEventReason.SW_THERMAL_SLOWDOWN;
import static io.gpumeter.common.fact.ClockEventReason.SYNC_BOOST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The bits of NVML's nvmlClocksEventReasons (nvml.h; pynvml's nvmlClocksEventReason* and nvmlClocksThrottleReason*). */
class ClockEventsTest {

    static Stream<Arguments> masks() {
        return Stream.of(
                arguments(0x0L, EnumSet.noneOf(ClockEventReason.class), 0L),
                arguments(0x1L, EnumSet.of(GPU_IDLE), 0L),
                arguments(0x2L, EnumSet.of(APPLICATIONS_CLOCKS_SETTING), 0L),
                arguments(0x4L, EnumSet.of(SW_POWER_CAP), 0L),
                arguments(0x8L, EnumSet.of(HW_SLOWDOWN), 0L),
                arguments(0x10L, EnumSet.of(SYNC_BOOST), 0L),
                arguments(0x20L, EnumSet.of(SW_THERMAL_SLOWDOWN), 0L),
                arguments(0x40L, EnumSet.of(HW_THERMAL_SLOWDOWN), 0L),
                arguments(0x80L, EnumSet.of(HW_POWER_BRAKE_SLOWDOWN), 0L),
                arguments(0x100L, EnumSet.of(DISPLAY_CLOCK_SETTING), 0L),
                // a power cap under a hardware thermal slowdown; idle beside the display clock setting
                arguments(0x44L, EnumSet.of(SW_POWER_CAP, HW_THERMAL_SLOWDOWN), 0L),
                arguments(0x101L, EnumSet.of(GPU_IDLE, DISPLAY_CLOCK_SETTING), 0L),
                // HW slowdown is reported with its cause: thermal (0x48), power brake (0x88)
                arguments(0x48L, EnumSet.of(HW_SLOWDOWN, HW_THERMAL_SLOWDOWN), 0L),
                arguments(0x88L, EnumSet.of(HW_SLOWDOWN, HW_POWER_BRAKE_SLOWDOWN), 0L),
                arguments(0x1FFL, EnumSet.allOf(ClockEventReason.class), 0L),
                // bits NVML does not name: the known ones still decode, the others are reported
                arguments(0x200L, EnumSet.noneOf(ClockEventReason.class), 0x200L),
                arguments(0x8004L, EnumSet.of(SW_POWER_CAP), 0x8000L));
    }

    @ParameterizedTest(name = "0x{0}")
    @MethodSource("masks")
    void decodesEveryBitIntoItsOwnSeries(long mask, Set<ClockEventReason> active, long unknown) {
        ClockEvents.Decoded decoded = ClockEvents.decode((double) mask);
        assertEquals(ClockEventReason.values().length, decoded.values().size(), "one value per reason, always");
        assertEquals(active, decoded.values().stream().filter(v -> v.value() == 1).map(ClockEvents.Value::reason)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(ClockEventReason.class))));
        assertTrue(decoded.values().stream().allMatch(v -> v.value() == 0 || v.value() == 1));
        assertEquals(unknown, decoded.unknownBits());
    }

    static Stream<Arguments> garbage() {
        return Stream.of(
                arguments(-1.0, "not a bitmask"),
                arguments(4.5, "not a bitmask"),
                arguments(Double.NaN, "not a bitmask"),
                arguments(Double.POSITIVE_INFINITY, "not a bitmask"),
                // DCGM_INT64_BLANK (0x7ffffffffffffff0) and DCGM_INT64_NOT_SUPPORTED after it: "no reading"
                arguments((double) 0x7ffffffffffffff0L, "DCGM's blank"),
                arguments((double) 0x7ffffffffffffff2L, "DCGM's blank"),
                arguments(0x1p60, "too large"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("garbage")
    void refusesWhatIsNoBitmask(double value, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClockEvents.decode(value));
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }

    @Test
    void powerAndHeatMatterIdleAndSettingsDoNot() {
        assertEquals(EnumSet.of(GPU_IDLE, APPLICATIONS_CLOCKS_SETTING, DISPLAY_CLOCK_SETTING),
                Stream.of(ClockEventReason.values()).filter(r -> !r.slowsWork())
                        .collect(Collectors.toCollection(() -> EnumSet.noneOf(ClockEventReason.class))));
        assertEquals(ClockEventReason.Kind.POWER, SW_POWER_CAP.kind());
        assertEquals(ClockEventReason.Kind.POWER, HW_POWER_BRAKE_SLOWDOWN.kind());
        assertEquals(ClockEventReason.Kind.THERMAL, SW_THERMAL_SLOWDOWN.kind());
        assertEquals(ClockEventReason.Kind.THERMAL, HW_THERMAL_SLOWDOWN.kind());
        assertFalse(GPU_IDLE.slowsWork());
        for (ClockEventReason reason : ClockEventReason.values()) {
            assertEquals(reason, ClockEventReason.of(reason.field()), "the field names its reason back");
            assertEquals("CLOCKS_EVENT_" + reason.name(), reason.field().name());
        }
    }
}
