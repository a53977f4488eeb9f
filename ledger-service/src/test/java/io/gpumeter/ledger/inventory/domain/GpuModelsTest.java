package io.gpumeter.ledger.inventory.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class GpuModelsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
            "NVIDIA-H100-80GB-HBM3          | NVIDIA H100 80GB HBM3",
            "NVIDIA H100 80GB HBM3          | NVIDIA H100 80GB HBM3",
            "nvidia_h100__80gb-_- hbm3      | NVIDIA H100 80GB HBM3",
            "'  NVIDIA-A100-SXM4-40GB  '    | NVIDIA A100 SXM4 40GB",
            "'-Tesla-T4-'                   | ' TESLA T4 '",
            "'__'                           | ' '",
            "'a\tb\nc\u000Bd\fe\rf'         | A B C D E F",
            "Quadro RTX 6000                | QUADRO RTX 6000",
            "'gpu\u00a0model'               | 'GPU\u00a0MODEL'",
            "straße-ı                       | STRASSE I",
    })
    void spellingsOfOneModelAreOneName(String given, String canonical) {
        assertEquals(canonical, GpuModels.canonical(given));
    }

    @Test
    void noNameIsNoModel() {
        assertNull(GpuModels.canonical(null));
        assertNull(GpuModels.canonical(""));
        assertNull(GpuModels.canonical(" \t\n"));
    }

    /** The rule as a regular expression says it, against random names of separators, letters and other characters. */
    @Test
    void randomNamesAreSpelledAsTheRegularExpressionSpellsThem() {
        Pattern separators = Pattern.compile("[-_\\s]+");
        String alphabet = "-_ \t\n\u000B\f\r\u00a0\u2003aZ9.ßı/";
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder name = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                name.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String given = name.toString();
            String expected = given.isBlank() ? null
                    : separators.matcher(given.trim()).replaceAll(" ").toUpperCase(Locale.ROOT);
            assertEquals(expected, GpuModels.canonical(given), () -> "'" + given + "'");
        }
    }
}
