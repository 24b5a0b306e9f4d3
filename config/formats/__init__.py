"""The site's own date and time formats per language (FORMAT_MODULE_PATH), where Django's
do not fit a tournament's pages; a language without a module here uses Django's."""
