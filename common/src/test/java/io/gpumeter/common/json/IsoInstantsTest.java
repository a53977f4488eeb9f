package io.gpumeter.common.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class IsoInstantsTest {

    /** The mapper every service had before: the Java time module alone. */
    private static final ObjectMapper STANDARD = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private static final ObjectMapper FAST = new ObjectMapper().registerModule(new JavaTimeModule())
            .registerModule(InstantJson.module()).disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    record Stamped(Instant at) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-05-01T00:00:00Z", "2026-05-01T08:00:00.250Z", "2026-05-01T08:00:00.000250Z",
            "2026-05-01T08:00:00.000000250Z", "2026-05-01T08:00:00.1Z", "2026-05-01T08:00:00.12345Z",
            "2026-05-01T08:00:00.123456789Z", "2026-05-01T08:00:00.000Z", "1970-01-01T00:00:00Z",
            "1969-12-31T23:59:59.999999999Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
            "2024-02-29T12:00:00Z", "2000-02-29T23:59:59Z", "1900-03-01T00:00:00Z", "2026-12-31T23:59:59Z",
            "0001-01-01T00:00:00Z", "1582-10-10T00:00:00Z", "0000-02-29T00:00:00Z", "1600-02-29T00:00:00Z",
            "2026-12-31T00:00:00Z", "2026-01-31T00:00:00Z", "2026-11-30T00:00:00Z", "0000-03-01T00:00:00Z"})
    void readsTheCanonicalFormAsTheStandardParserDoes(String text) {
        assertEquals(Instant.parse(text), IsoInstants.parseUtc(text));
    }

    /** Texts the fast path must not take: each is either refused or read by the general parser as it always was. */
    @ParameterizedTest
    @ValueSource(strings = {"", "2026-05-01", "2026-05-01T00:00:00", "2026-05-01T00:00Z", "2026-05-01t00:00:00Z",
            "2026-05-01T00:00:00z", "2026-05-01 00:00:00Z", "2026-05-01T00:00:00+00:00", "2026-05-01T02:00:00+02:00",
            "2026-05-01T00:00:00.Z", "2026-05-01T00:00:00.1234567890Z", "2026-05-01T00:00:00,5Z", "+2026-05-01T00:00:00Z",
            "-0001-01-01T00:00:00Z", "+10000-01-01T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z",
            "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "0001-02-29T00:00:00Z",
            "2024-02-30T00:00:00Z", "2026-06-31T00:00:00Z", "2026-09-31T00:00:00Z", "2026-11-31T00:00:00Z", "2026-01-32T00:00:00Z", "2026-04-31T00:00:00Z", "2026-05-00T00:00:00Z",
            "2026-05-01T24:00:00Z", "2026-05-01T23:60:00Z", "2026-12-31T23:59:60Z", "2026-05-01T0a:00:00Z",
            "2026-05-01T00:00:00.12a4Z", "２026-05-01T00:00:00Z", "2026-05-01T00:00:00ZZ", "2026/05/01T00:00:00Z",
            "2026-05-01T00:00:00.1234567Zx", " 2026-05-01T00:00:00Z", "1714521600", "2026-05-01T00:00:00-00:00"})
    void leavesEveryOtherTextToTheGeneralParser(String text) {
        assertNull(IsoInstants.parseUtc(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-05-01T02:00:00+02:00", "2026-12-31T23:59:60Z", "+10000-01-01T00:00:00Z",
            "2026-05-01T00:00:00.1234567890Z", "2026-02-29T00:00:00Z", "2026-05-01T24:00:00Z", "not a time", "1714521600",
            "2026-05-01t00:00:00z"})
    void jsonReadsWhatTheStandardModuleReadsAndRefusesWhatItRefuses(String text) throws Exception {
        String body = "{\"at\":\"" + text + "\"}";
        Object standard;
        try {
            standard = STANDARD.readValue(body, Stamped.class);
        } catch (JsonProcessingException e) {
            standard = e.getClass();
        }
        Object fast;
        try {
            fast = FAST.readValue(body, Stamped.class);
        } catch (JsonProcessingException e) {
            fast = e.getClass();
        }
        assertEquals(standard, fast, text);
    }

    @Test
    void jsonRefusesAnImpossibleDateWithTheStandardError() {
        assertThrows(InvalidFormatException.class, () -> FAST.readValue("{\"at\":\"2026-02-30T00:00:00Z\"}", Stamped.class));
        assertThrows(DateTimeParseException.class, () -> Instant.parse("2026-02-30T00:00:00Z"));
    }

    @Test
    void writesWhatInstantToStringWritesAcrossTheRange() {
        SplittableRandom random = new SplittableRandom(16);
        for (int i = 0; i < 200_000; i++) {
            long seconds = random.nextLong(-62_167_219_200L - 86_400L * 400, 253_402_300_799L + 86_400L * 400);
            int nano = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1_000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant instant = Instant.ofEpochSecond(seconds, nano);
            String text = IsoInstants.format(instant);
            assertEquals(instant.toString(), text);
            if (!text.startsWith("+") && !text.startsWith("-")) {
                assertEquals(instant, IsoInstants.parseUtc(text), text);
            }
        }
    }

    @Test
    void writesAndReadsEveryDayOfTheFourDigitYearsAsInstantDoes() {
        long first = LocalDate.of(0, 1, 1).toEpochDay();
        long last = LocalDate.of(9999, 12, 31).toEpochDay();
        for (long day = first; day <= last; day++) {
            Instant instant = Instant.ofEpochSecond(day * 86_400L + Math.floorMod(day * 7_919L, 86_400L));
            assertEquals(instant.toString(), IsoInstants.format(instant));
            assertEquals(instant, IsoInstants.parseUtc(instant.toString()));
        }
    }

    @Test
    void writesTheEdgesOfTheFourDigitYears() {
        for (String text : new String[]{"0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "+10000-01-01T00:00:00Z",
                "-0001-12-31T23:59:59Z", "1970-01-01T00:00:00.001Z", "1970-01-01T00:00:00.000001Z",
                "1970-01-01T00:00:00.000000001Z", "1970-01-01T00:00:00.100Z", "1970-01-01T00:00:00.120Z"}) {
            Instant instant = Instant.parse(text);
            assertEquals(instant.toString(), IsoInstants.format(instant), text);
        }
    }

    @Test
    void jsonWritesAndReadsTheSameTextAsTheStandardModule() throws Exception {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) {
            Stamped value = new Stamped(Instant.ofEpochSecond(random.nextLong(-10_000_000_000L, 10_000_000_000L),
                    i % 2 == 0 ? 0 : random.nextInt(1_000_000_000)));
            String standard = STANDARD.writeValueAsString(value);
            assertEquals(standard, FAST.writeValueAsString(value));
            assertEquals(value, FAST.readValue(standard, Stamped.class));
        }
        for (String edge : new String[]{"0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "+10000-01-01T00:00:00Z",
                "-0001-12-31T23:59:59.5Z"}) {
            Stamped value = new Stamped(Instant.parse(edge));
            assertEquals(STANDARD.writeValueAsString(value), FAST.writeValueAsString(value), edge);
        }
        assertEquals("{\"at\":null}", FAST.writeValueAsString(new Stamped(null)));
        assertEquals(new Stamped(null), FAST.readValue("{\"at\":null}", Stamped.class));
    }

    @Test
    void aMapperWritingTimestampsKeepsWritingNumbers() throws Exception {
        ObjectMapper numbers = new ObjectMapper().registerModule(new JavaTimeModule()).registerModule(InstantJson.module())
                .enable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        Stamped value = new Stamped(Instant.parse("2026-05-01T00:00:00.5Z"));
        String written = numbers.writeValueAsString(value);
        assertEquals("{\"at\":1777593600.500000000}", written);
        assertEquals(value, numbers.readValue(written, Stamped.class));
    }

    @Test
    void theServicesMapperCustomizerRegistersTheModuleLast() throws Exception {
        ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule());
        new InstantJson().customize(mapper);
        assertInstanceOf(InstantJson.Writer.class,
                mapper.getSerializerProviderInstance().findValueSerializer(Instant.class));
        assertEquals(Instant.parse("2026-05-01T00:00:00Z"), mapper.readValue("\"2026-05-01T00:00:00Z\"", Instant.class));
    }
}
