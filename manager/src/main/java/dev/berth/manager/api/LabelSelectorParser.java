package dev.berth.manager.api;

import dev.berth.manager.model.LabelRequirement;
import dev.berth.manager.model.LabelSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the {@code labelSelector} query parameter: {@code a=b}, {@code a==b}, {@code a!=b},
 * {@code a}, {@code !a}, {@code a in (x,y)}, {@code a notin (x)}, joined by commas.
 */
final class LabelSelectorParser {
    private LabelSelectorParser() {}

    static LabelSelector parse(String text) {
        if (text == null || text.isBlank()) return LabelSelector.EVERYTHING;
        Map<String, String> matchLabels = new LinkedHashMap<>();
        List<LabelRequirement> expressions = new ArrayList<>();
        for (String term : splitTerms(text)) {
            String t = term.trim();
            if (t.isEmpty()) throw invalid(text, "empty requirement");
            String[] setBased = t.split("\\s+(?=(in|notin)\\s*\\()", 2);
            if (setBased.length == 2) {
                String key = key(text, setBased[0]);
                String rest = setBased[1].trim();
                String operator = rest.startsWith("notin") ? "NotIn" : "In";
                int open = rest.indexOf('(');
                if (!rest.endsWith(")")) throw invalid(text, "missing ')' in \"" + t + "\"");
                List<String> values = new ArrayList<>();
                for (String value : rest.substring(open + 1, rest.length() - 1).split(",")) {
                    if (!value.isBlank()) values.add(value.trim());
                }
                expressions.add(new LabelRequirement(key, operator, values));
            } else if (t.contains("!=")) {
                String[] parts = t.split("!=", 2);
                expressions.add(new LabelRequirement(key(text, parts[0]), "NotIn", List.of(parts[1].trim())));
            } else if (t.contains("=")) {
                String[] parts = t.split("==?", 2);
                matchLabels.put(key(text, parts[0]), parts[1].trim());
            } else if (t.startsWith("!")) {
                expressions.add(new LabelRequirement(key(text, t.substring(1)), "DoesNotExist", List.of()));
            } else {
                expressions.add(new LabelRequirement(key(text, t), "Exists", List.of()));
            }
        }
        return new LabelSelector(matchLabels, expressions);
    }

    private static List<String> splitTerms(String text) {
        List<String> terms = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') depth++;
            else if (c == ')') depth--;
            else if (c == ',' && depth == 0) {
                terms.add(text.substring(start, i));
                start = i + 1;
            }
        }
        terms.add(text.substring(start));
        return terms;
    }

    private static String key(String selector, String raw) {
        String key = raw.trim();
        if (!key.matches("[A-Za-z0-9]([A-Za-z0-9._/-]*[A-Za-z0-9])?")) {
            throw invalid(selector, "invalid label key \"" + key + "\"");
        }
        return key;
    }

    private static ApiException invalid(String selector, String problem) {
        return ApiException.badRequest("unable to parse requirement: labelSelector \"" + selector + "\": " + problem);
    }
}
