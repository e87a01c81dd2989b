package dev.berth.manager.kubectl;

import java.util.ArrayList;
import java.util.List;

/** Splits a command line as a POSIX shell would for the simple cases runbooks use: spaces, and single or double quotes. */
final class CommandLine {
    private CommandLine() {}

    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) quote = 0;
                else word.append(c);
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) words.add(word.toString());
                word.setLength(0);
                inWord = false;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) throw new IllegalArgumentException("unbalanced quote in: " + line);
        if (inWord) words.add(word.toString());
        return words;
    }
}
