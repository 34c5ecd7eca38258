package io.khamsin.container.http2.conformance;

import java.lang.reflect.Method;

/**
 * A case's place in the summary: its group, from the {@link Section} of its class, its sentence, from its method's
 * name, and the requirement it cites.
 *
 * @param key the group's key
 * @param section the group's section number
 * @param title the group's title
 * @param sentence the case as a sentence
 * @param rfc the requirement cited
 */
record CaseId(String key, String section, String title, String sentence, String rfc) {

	static CaseId of(Method method) {
		Section section = method.getDeclaringClass().getAnnotation(Section.class);
		if (section == null) {
			throw new IllegalStateException(method.getDeclaringClass() + " has no @Section");
		}
		String rfc = method.getAnnotation(ConformanceCase.class).value();
		return new CaseId(section.key(), section.number(), section.title(), sentence(method.getName()), rfc);
	}

	String group() {
		return this.key + "/" + this.section + " " + this.title;
	}

	static String sentence(String methodName) {
		StringBuilder sentence = new StringBuilder();
		for (int i = 0; i < methodName.length(); i++) {
			char c = methodName.charAt(i);
			boolean boundary = i > 0 && (Character.isUpperCase(c) || (Character.isDigit(c)
					&& !Character.isDigit(methodName.charAt(i - 1))));
			if (boundary) {
				sentence.append(' ');
			}
			sentence.append((i == 0) ? Character.toUpperCase(c) : Character.toLowerCase(c));
		}
		return sentence.toString();
	}

}
