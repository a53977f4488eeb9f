package io.gpumeter.billing.domain;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ModelNameTest {

    @ParameterizedTest(name = "{0}: [{1}] -> {2}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "node label            | NVIDIA-H100-80GB-HBM3     | nvidia-h100-80gb-hbm3",
            "nvidia-smi name       | NVIDIA H100 80GB HBM3     | nvidia-h100-80gb-hbm3",
            "snake case            | nvidia_h100_80gb_hbm3     | nvidia-h100-80gb-hbm3",
            "mixed separators      | NVIDIA A100-SXM4_40GB     | nvidia-a100-sxm4-40gb",
            "runs of separators    | 'NVIDIA  -_ L4'           | nvidia-l4",
            "tab inside            | 'NVIDIA\tL4'              | nvidia-l4",
            "padding and edges     | '  -NVIDIA L4_ '          | nvidia-l4",
            "dots kept             | Tesla-V100-SXM2-16GB.v2   | tesla-v100-sxm2-16gb.v2",
            "null                  | NULL                      | unknown",
            "empty                 | ''                        | unknown",
            "blank                 | '   '                     | unknown",
            "separators only       | '-_-'                     | unknown",
            "ledger unknown        | Unknown                   | unknown",
    })
    void normalise(String caseName, String model, String expected) {
        assertEquals(expected, ModelName.normalise(model));
    }

    @ParameterizedTest(name = "{0}: [{1}] -> [{2}]")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "spelling kept         | NVIDIA H100 80GB HBM3     | NVIDIA H100 80GB HBM3",
            "trimmed               | ' NVIDIA-L4 '             | NVIDIA-L4",
            "null                  | NULL                      | unknown",
            "blank                 | ' '                       | unknown",
            "upper-case unknown    | UNKNOWN                   | unknown",
    })
    void display(String caseName, String model, String expected) {
        assertEquals(expected, ModelName.display(model));
    }
}
