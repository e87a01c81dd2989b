package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.model.LabelSelector;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LabelSelectorParserTest {
    private static final Map<String, String> LABELS = Map.of("team", "red", "tier", "1");

    @ParameterizedTest(name = "{0} matches team=red,tier=1: {1}")
    @CsvSource(delimiter = '|', value = {
            "''                        | true",
            "team=red                  | true",
            "team==red                 | true",
            "team=blue                 | false",
            "team!=blue                | true",
            "team!=red                 | false",
            "team                      | true",
            "owner                     | false",
            "!owner                    | true",
            "!team                     | false",
            "team in (blue, red)       | true",
            "team in (blue)            | false",
            "team notin (blue)         | true",
            "owner notin (x)           | true",
            "team=red,tier in (1,2)    | true",
            "team=red,tier notin (1)   | false",
    })
    void selectorsMatchAsKubernetesDoes(String selector, boolean matches) {
        LabelSelector parsed = LabelSelectorParser.parse(selector);
        assertThat(parsed.matches(LABELS)).isEqualTo(matches);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"team in (red", "=red", "team=red,,tier", "bad key!"})
    void malformedSelectorsAre400(String selector) {
        assertThatThrownBy(() -> LabelSelectorParser.parse(selector))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(400));
    }
}
