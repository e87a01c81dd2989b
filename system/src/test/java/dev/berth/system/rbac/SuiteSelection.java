package dev.berth.system.rbac;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Whether this test run includes every end-to-end suite (the classes named {@code *SystemTest} in the
 * system module), judged from Surefire's {@code -Dtest} selection: unset is everything; otherwise each
 * suite must be matched by one of its comma-separated patterns ({@code *} wildcards, simple or
 * qualified class names) and no pattern may pick single methods.
 */
final class SuiteSelection {
    private SuiteSelection() {}

    static boolean includesEverySuite(String selection, List<String> suites) {
        if (selection == null || selection.isBlank()) return true;
        List<String> patterns = Arrays.stream(selection.split(",")).map(String::strip).filter(p -> !p.isEmpty()).toList();
        if (patterns.stream().anyMatch(p -> p.contains("#") || p.startsWith("!"))) return false;
        List<Pattern> regexes = patterns.stream().map(SuiteSelection::regex).toList();
        return suites.stream().allMatch(suite -> regexes.stream().anyMatch(r -> r.matcher(suite).matches()
                || r.matcher(suite.substring(suite.lastIndexOf('.') + 1)).matches()));
    }

    /** The {@code *SystemTest} classes compiled into {@code testClasses}, by qualified name. */
    static List<String> endToEndSuites(Path testClasses) {
        try (Stream<Path> files = Files.walk(testClasses)) {
            return files.map(f -> testClasses.relativize(f).toString())
                    .filter(f -> f.endsWith("SystemTest.class") && !f.contains("$"))
                    .map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.').replace('\\', '.'))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Pattern regex(String pattern) {
        String bare = pattern.replaceAll("\\.(java|class)$", "").replace('/', '.');
        StringBuilder regex = new StringBuilder();
        for (char c : bare.toCharArray()) {
            if (c == '*') regex.append(".*");
            else if (c == '?') regex.append('.');
            else regex.append(Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(regex.toString());
    }
}
